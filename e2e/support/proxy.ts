/**
 * A TCP proxy in front of the test server, the browser's only way to it: `cut()` drops every
 * connection and refuses new ones (the phone lost its signal), `restore()` accepts again on the
 * same port (so the same origin, with its service worker and storage). Browsers driven over
 * WebDriver have no offline switch; this works the same in every engine.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface CuttableProxy {
  /** http://127.0.0.1:<port>, the origin the browser opens. */
  readonly url: string;
  cut(): void;
  restore(): Promise<void>;
  close(): void;
}

export async function cuttableProxy(target: string): Promise<CuttableProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(Number(to.port), to.hostname);
        for (const x of [client, upstream]) {
          sockets.add(x);
          x.on("error", () => {});
          x.on("close", () => {
            sockets.delete(x);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  await listen();
  const cut = () => {
    server?.close();
    server = undefined;
    for (const s of sockets) s.destroy();
  };
  return { url: `http://127.0.0.1:${port}`, cut, restore: listen, close: cut };
}
