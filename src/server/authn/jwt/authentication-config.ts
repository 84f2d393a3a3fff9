// apiserver.config.k8s.io AuthenticationConfiguration (v1beta1 and v1alpha1 read alike), the part
// Capstan serves: JWT authenticators and the anonymous section (k8s.io/apiserver/pkg/apis/apiserver/types.go).

export const authenticationConfigVersions = [
  'apiserver.config.k8s.io/v1beta1',
  'apiserver.config.k8s.io/v1alpha1',
  'apiserver.config.k8s.io/v1',
] as const;

export interface JWTIssuer {
  readonly url: string;
  readonly discoveryURL?: string;
  /** PEM bundle the issuer's TLS certificate must chain to (the system roots when absent). */
  readonly certificateAuthority?: string;
  readonly audiences: readonly string[];
  readonly audienceMatchPolicy?: string;
}

export interface ClaimValidationRule {
  readonly claim?: string;
  readonly requiredValue?: string;
  readonly expression?: string;
  readonly message?: string;
}

export interface PrefixedClaimOrExpression {
  readonly claim?: string;
  /** Required with `claim` (kube's *string: "" is a value). */
  readonly prefix?: string;
  readonly expression?: string;
}

export interface ClaimOrExpression {
  readonly claim?: string;
  readonly expression?: string;
}

export interface ExtraMapping {
  readonly key: string;
  readonly valueExpression: string;
}

export interface ClaimMappings {
  readonly username: PrefixedClaimOrExpression;
  readonly groups?: PrefixedClaimOrExpression;
  readonly uid?: ClaimOrExpression;
  readonly extra?: readonly ExtraMapping[];
}

export interface UserValidationRule {
  readonly expression: string;
  readonly message?: string;
}

export interface JWTAuthenticatorConfig {
  readonly issuer: JWTIssuer;
  readonly claimValidationRules?: readonly ClaimValidationRule[];
  readonly claimMappings: ClaimMappings;
  readonly userValidationRules?: readonly UserValidationRule[];
  /** Accepted signature algorithms (the --oidc-signing-algs flag; kube's structured config allows its default set). */
  readonly signingAlgs?: readonly string[];
}

export interface AnonymousAuthConfig {
  readonly enabled: boolean;
  readonly conditions?: readonly { readonly path: string }[];
}

export interface AuthenticationConfiguration {
  readonly apiVersion: string;
  readonly kind: 'AuthenticationConfiguration';
  readonly jwt: readonly JWTAuthenticatorConfig[];
  readonly anonymous?: AnonymousAuthConfig;
}
