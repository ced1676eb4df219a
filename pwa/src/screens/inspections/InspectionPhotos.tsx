/**
 * An inspection's photos on its page: small thumbnails (a tap opens the full-screen viewer, which
 * zooms); add or remove them.
 */
import type { Inspection } from "@hivekeep/proto";
import { useState } from "react";
import { useClient } from "../../app/client.tsx";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { Card, ConfirmButton, ErrorNote, useAction } from "../../ui/page.tsx";
import { inspectionMessages } from "./messages.ts";
import {
  PhotoFileButton,
  PhotoStatus,
  PhotoThumb,
  photoRoom,
  usePhotoPreparation,
} from "./PhotoInput.tsx";
import { PhotoViewer } from "./PhotoViewer.tsx";

export function Photos(props: { readonly inspection: Inspection; readonly readOnly: boolean }) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const { inspection, readOnly } = props;
  const photos = inspection.photoKeys;
  const [viewing, setViewing] = useState<number | undefined>();
  const prep = usePhotoPreparation();
  const add = useAction(async (files: File[]) => {
    const urls = await prep.prepare(files, photoRoom(photos.length));
    for (const photo of urls) {
      await client.inspections.addInspectionPhoto({ inspectionId: inspection.id, photo });
    }
  });
  const remove = useAction(async (photo: string) => {
    await client.inspections.removeInspectionPhoto({ inspectionId: inspection.id, photo });
  });

  if (readOnly && photos.length === 0) return null;
  return (
    <Card title={t("photos")}>
      {photos.length === 0 ? (
        <p className="muted">{t("noPhotos")}</p>
      ) : (
        <ul className="photos">
          {photos.map((p, n) => (
            <li key={p} className="photos__item">
              <button
                type="button"
                className="photos__open"
                aria-label={t("viewPhoto", { n: n + 1 })}
                onClick={() => setViewing(n)}
              >
                <PhotoThumb photo={p} alt="" inspectionId={inspection.id} />
              </button>
              {!readOnly && (
                <ConfirmButton
                  label={t("removePhoto")}
                  confirm={t("removePhotoConfirm")}
                  confirmLabel={t("removePhoto")}
                  keepLabel={tc("keep")}
                  disabled={remove.busy}
                  onConfirm={() => void remove.run(p)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
      {!readOnly && (
        <>
          <div className="form__actions">
            <PhotoFileButton
              label={t("addPhoto")}
              disabled={prep.busy || add.busy || photoRoom(photos.length) === 0}
              onFiles={(files) => void add.run(files)}
            />
          </div>
          <PhotoStatus busy={prep.busy} errors={prep.errors} room={photoRoom(photos.length)} />
          <ErrorNote error={add.error} />
        </>
      )}
      {viewing !== undefined && photos[viewing] !== undefined && (
        <PhotoViewer
          inspectionId={inspection.id}
          photos={photos}
          index={viewing}
          onIndex={setViewing}
          onClose={() => setViewing(undefined)}
        />
      )}
    </Card>
  );
}
