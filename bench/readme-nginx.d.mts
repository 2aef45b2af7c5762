/** Types of readme-nginx.mjs, for the tests that run the deployment guide's nginx block. */
export function readmeNginxConfig(dir: string, listen: number, upstreams: [number, number], options?: { errorLogLevel?: string; workers?: number; debianHttp?: boolean }): string;
