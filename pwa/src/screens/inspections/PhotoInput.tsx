/**
 * Taking or choosing photos: a file input dressed as a big button (it is the input itself that
 * carries the label, so a screen reader, the keyboard and a test's setInputFiles all reach it),
 * and the resize on the device (photo.ts) with its progress and errors.
 */
import "./photos.css";
import { maxInspectionPhotos } from "@hivekeep/client-core/core";
import { useState } from "react";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { errorText } from "../../ui/page.tsx";
import { inspectionMessages } from "./messages.ts";
import { PhotoError, preparePhoto } from "./photo.ts";
import { useThumbnail } from "./thumbnail.ts";
import { usePhoto } from "./use-photo.ts";

/** How many more photos an inspection holding `count` can take (core's one limit). */
export const photoRoom = (count: number): number => Math.max(0, maxInspectionPhotos - count);

/**
 * Resizes picked files one after another (a phone has little memory for 12 MP images). Only the
 * first `room` files are used: an inspection holds at most maxInspectionPhotos, and the rest are
 * named in an error instead of being refused one by one when saved.
 */
export function usePhotoPreparation() {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const prepare = async (files: readonly File[], room: number): Promise<string[]> => {
    setBusy(true);
    setErrors([]);
    const out: string[] = [];
    const failed: string[] = [];
    const over = files.slice(Math.max(0, room));
    if (over.length > 0) {
      const names = over.map((f) => tc("quoted", { text: f.name || "?" })).join(", ");
      failed.push(t("photosOverLimit", { max: maxInspectionPhotos, names }));
    }
    try {
      for (const file of files.slice(0, Math.max(0, room))) {
        try {
          out.push((await preparePhoto(file)).dataUrl);
        } catch (err) {
          const name = file.name || "?";
          failed.push(
            err instanceof PhotoError
              ? err.reason === "unreadable"
                ? t("photoUnreadable", { name })
                : t("photoTooLarge", { name })
              : t("photoFailed", { name, message: errorText(err) }),
          );
        }
      }
    } finally {
      setErrors(failed);
      setBusy(false);
    }
    return out;
  };
  return { busy, errors, setErrors, prepare };
}

/** "Take photo" (the rear camera) or "Choose from gallery" / "Add photo" (several at once). */
export function PhotoFileButton(props: {
  readonly label: string;
  readonly camera?: boolean;
  readonly primary?: boolean;
  readonly disabled?: boolean;
  readonly onFiles: (files: File[]) => void;
}) {
  const cls = props.primary ? "button" : "button button--secondary";
  return (
    <label className={`${cls} photo-file${props.disabled ? " photo-file--disabled" : ""}`}>
      <input
        type="file"
        className="photo-file__input"
        accept="image/*"
        capture={props.camera ? "environment" : undefined}
        multiple={!props.camera}
        disabled={props.disabled}
        aria-label={props.label}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // Picking the same file again must fire again.
          e.target.value = "";
          if (files.length > 0) props.onFiles(files);
        }}
      />
      {props.camera ? <CameraIcon /> : <ImageIcon />}
      <span>{props.label}</span>
    </label>
  );
}

/**
 * "Preparing photos…" while the device resizes, that the inspection is full (`room` 0), and
 * what could not be used.
 */
export function PhotoStatus(props: {
  readonly busy: boolean;
  readonly errors: readonly string[];
  readonly room: number;
}) {
  const t = useMessages(inspectionMessages);
  return (
    <>
      <p className="muted photo-status" role="status">
        {props.busy
          ? t("preparingPhotos")
          : props.room === 0
            ? t("photosFull", { max: maxInspectionPhotos })
            : ""}
      </p>
      {props.errors.map((e) => (
        <p key={e} className="error" role="alert">
          {e}
        </p>
      ))}
    </>
  );
}

/**
 * A stored photo small, in a list: its thumbnail (thumbnail.ts) once made, the cell's background
 * until then, so a list never decodes its photos at full size.
 */
export function PhotoThumb(props: {
  readonly photo: string;
  readonly alt: string;
  /** The inspection of a stored photo (one held by reference is fetched through it). */
  readonly inspectionId?: string;
}) {
  const t = useMessages(inspectionMessages);
  const state = usePhoto(props.inspectionId, props.photo);
  const src = useThumbnail(state?.kind === "ready" ? state.src : undefined);
  if (state?.kind === "missing") {
    return (
      <span className="photos__thumb photos__thumb--missing" role="img" aria-label={props.alt}>
        {t(missingMessage[state.reason])}
      </span>
    );
  }
  return src === undefined ? (
    // Named like the photo while it is made; with no name (the button around it has one) hidden.
    props.alt ? (
      <span className="photos__thumb" role="img" aria-label={props.alt} />
    ) : (
      <span className="photos__thumb" aria-hidden="true" />
    )
  ) : (
    <img className="photos__thumb" src={src} alt={props.alt} decoding="async" />
  );
}

/** Why a photo cannot be shown, as a message key. */
export const missingMessage = {
  offline: "photoOffline",
  gone: "photoGone",
  failed: "photoLoadFailed",
} as const;

/** The line icons of the photo controls (PhotoInput's buttons and the viewer's). */
export const iconProps = {
  width: 22,
  height: 22,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  focusable: false,
} as const;

function CameraIcon() {
  return (
    <svg {...iconProps} aria-hidden="true">
      <path d="M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" />
      <circle cx="12" cy="13" r="4" />
    </svg>
  );
}

function ImageIcon() {
  return (
    <svg {...iconProps} aria-hidden="true">
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </svg>
  );
}
