// What a webhook call throws when the webhook answers outside 2xx.
/**
 * A webhook's answer outside 2xx, as client-go's rest client turns one into a StatusError: the
 * Status it sent (its message and code), else the HTTP code with client-go's generic text.
 */
export class WebhookResponseError extends Error {
  readonly code: number;

  constructor(code: number, body: string) {
    let status: { message: string; code: number } | undefined;
    try {
      const parsed = JSON.parse(body) as { kind?: unknown; message?: unknown; code?: unknown };
      if (parsed.kind === 'Status' && typeof parsed.message === 'string')
        status = { message: parsed.message, code: typeof parsed.code === 'number' ? parsed.code : code };
    } catch {
      // not a Status
    }
    super(
      status?.message ??
        (body.trim() === ''
          ? `the server responded with the status code ${String(code)} but did not return more information`
          : `an error on the server (${JSON.stringify(body.trim())}) has prevented the request from succeeding`),
    );
    this.name = 'WebhookResponseError';
    this.code = status?.code ?? code;
  }
}
