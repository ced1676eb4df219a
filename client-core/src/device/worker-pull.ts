/**
 * The page's side of the pull Worker (pull-worker.ts): `pull(limit)` asks the Worker to pull the
 * feed into the replica and answers what it saw; its failures come back as the same
 * ConnectErrors as in the page.
 */
import { ConnectError } from "@connectrpc/connect";
import type { PullProgress, PullResult } from "./pull-feed.ts";
import type { PullReplyMessage, PullRequestMessage } from "./pull-worker.ts";

export interface WorkerPull {
  /** `onProgress` hears how far the pull has come after each page (pull-feed.ts). */
  pull(
    limit: number,
    token: string | undefined,
    onProgress?: (progress: PullProgress) => void,
  ): Promise<PullResult>;
  terminate(): void;
}

export function createWorkerPull(
  baseUrl: string,
  dbName: string,
  feed: { readonly photoRefs: boolean; readonly readingDays: number },
): WorkerPull {
  const { photoRefs, readingDays } = feed;
  const waiting = new Map<number, (reply: PullReplyMessage) => void>();
  let nextId = 0;
  // Started on the first pull that needs it (a long feed), so a small account never loads it.
  let started: Worker | undefined;
  const worker = () => {
    if (started === undefined) {
      started = new Worker(new URL("./pull-worker.ts", import.meta.url), {
        type: "module",
        name: "hivekeep-pull",
      });
      started.onmessage = (e: MessageEvent<PullReplyMessage>) => waiting.get(e.data.id)?.(e.data);
    }
    return started;
  };
  return {
    pull(limit, token, onProgress) {
      const id = ++nextId;
      return new Promise<PullResult>((resolve, reject) => {
        waiting.set(id, (reply) => {
          if ("progress" in reply) {
            onProgress?.(reply.progress);
            return;
          }
          waiting.delete(id);
          if ("error" in reply) reject(new ConnectError(reply.error.message, reply.error.code));
          else resolve(reply.result);
        });
        const request: PullRequestMessage = {
          id,
          baseUrl,
          dbName,
          limit,
          token,
          photoRefs,
          readingDays,
        };
        worker().postMessage(request);
      });
    },
    terminate: () => started?.terminate(),
  };
}
