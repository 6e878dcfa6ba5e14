/** Types of e2e/nginx.js (for test/proxy-nginx.spec.ts). */
export const SITE_FILE: string;
export function findNginx(): { path: string | null; reason?: string };
export function hasOpenssl(): boolean;
export interface RunningNginx {
  /** https://<listenHost>:<port> */
  url: string;
  /** the plain-HTTP server (it redirects to HTTPS) */
  httpUrl: string;
  /** the self-signed certificate (PEM): the clients' `ca` */
  ca: Buffer;
  pid: number | undefined;
  /** nginx's output and error log so far */
  log(): string;
  /** the site file as templated */
  siteConfig: string;
  stop(): Promise<void>;
}
export function startNginx(options: { upstreamPort: number; listenHost?: string; proxyBind?: string; nginxPath?: string }): Promise<RunningNginx>;
