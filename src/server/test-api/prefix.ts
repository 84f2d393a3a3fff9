// Where the test API is served: a path prefix of Capstan's own, beside kube's /api and /apis.

export const testAPIPrefix = '/capstan/v1/';

/** Whether a request is one of the test API's own (faults and the request log leave those alone). */
export const isTestAPIPath = (pathname: string): boolean => pathname.startsWith(testAPIPrefix);
