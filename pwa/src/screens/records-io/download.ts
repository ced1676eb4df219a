/**
 * Saves a file the app made on this device (an export) through the browser's download: no
 * server is asked, so it works offline. The object URL is released once the download started.
 */
export function saveFile(name: string, content: string | Uint8Array, type: string): void {
  const part: BlobPart = typeof content === "string" ? content : new Uint8Array(content);
  const url = URL.createObjectURL(new Blob([part], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference to the blob once started; release ours after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const mimeTypes = {
  json: "application/json",
  zip: "application/zip",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;
