/**
 * An inspection's photos full screen, to see eggs, young larvae and mites: pinch (or the mouse
 * wheel) zooms around the fingers, one finger pans a zoomed photo, double tap zooms in or back;
 * +, − and "fit" buttons do the same for one hand or a keyboard; previous and next go through
 * the photos (arrow keys too). Escape, the Close button and the phone's back button close it:
 * the viewer puts one history entry of its own, so "back" closes the photo, not the page.
 *
 * Pointer events, no library: the math is in zoom.ts. The transform is a React style prop, set
 * through the CSSOM, which the CSP allows (no inline style attribute strings).
 */
import "./photo-viewer.css";
import {
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { inspectionMessages } from "./messages.ts";
import { iconProps, missingMessage } from "./PhotoInput.tsx";
import { usePhoto } from "./use-photo.ts";
import { type Box, fitted, fittedSize, panBy, type View, zoomAt, zoomStep } from "./zoom.ts";

/** The history entry's mark: a back press while it is current closes the viewer. */
const historyMark = "hivekeepPhotoViewer";
const isMarked = () => !!(history.state as Record<string, unknown> | null)?.[historyMark];

export function PhotoViewer(props: {
  /** The inspection the photos are of (a photo held by reference is fetched through it). */
  readonly inspectionId?: string;
  readonly photos: readonly string[];
  readonly index: number;
  readonly onIndex: (index: number) => void;
  readonly onClose: () => void;
}) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const { photos, index, onIndex, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>(fitted);
  const [natural, setNatural] = useState<Box>({ width: 0, height: 0 });
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // Open as a modal with a history entry of its own; back (or closing) leaves it.
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    // Once: React's StrictMode mounts twice in development, and an entry left over (the viewer
    // closed by going away) is reused rather than stacked.
    if (!isMarked()) history.pushState({ [historyMark]: true }, "");
    const onPop = () => closeRef.current();
    window.addEventListener("popstate", onPop);
    return () => {
      window.removeEventListener("popstate", onPop);
      d?.close();
    };
  }, []);
  const close = () => {
    if (isMarked()) history.back();
    else onClose();
  };

  // A new photo starts fitted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: index is the trigger, not a value read.
  useEffect(() => setView(fitted), [index]);

  const boxes = () => {
    const el = stage.current;
    const s = { width: el?.clientWidth ?? 0, height: el?.clientHeight ?? 0 };
    return { stage: s, image: fittedSize(natural, s) };
  };
  /** A point of the stage from its centre, for zooming around it. */
  const fromCentre = (clientX: number, clientY: number) => {
    const r = stage.current?.getBoundingClientRect();
    return r
      ? { x: clientX - r.left - r.width / 2, y: clientY - r.top - r.height / 2 }
      : { x: 0, y: 0 };
  };
  const zoomBy = (factor: number, at = { x: 0, y: 0 }) =>
    setView((v) => {
      const b = boxes();
      return zoomAt(v, factor, at, b.image, b.stage);
    });

  // Pointers down on the stage: one pans, two pinch.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number } | undefined>(undefined);
  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 2) pinch.current = { distance: distance() };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const before = pointers.current.get(e.pointerId);
    if (!before) return;
    const now = { x: e.clientX, y: e.clientY };
    pointers.current.set(e.pointerId, now);
    if (pointers.current.size >= 2 && pinch.current) {
      const d = distance();
      if (pinch.current.distance > 0 && d > 0) {
        const [a, b] = [...pointers.current.values()];
        const mid = a && b ? fromCentre((a.x + b.x) / 2, (a.y + b.y) / 2) : { x: 0, y: 0 };
        zoomBy(d / pinch.current.distance, mid);
      }
      pinch.current = { distance: d };
    } else if (pointers.current.size === 1) {
      setView((v) => {
        const b = boxes();
        return panBy(v, now.x - before.x, now.y - before.y, b.image, b.stage);
      });
    }
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = undefined;
  };
  const onDoubleTap = (e: ReactMouseEvent) => {
    // Double tap (or click): zoom in twice a step where tapped, or back to fitted.
    if (view.scale > 1) setView(fitted);
    else zoomBy(zoomStep * zoomStep, fromCentre(e.clientX, e.clientY));
  };

  const go = (to: number) => {
    if (to >= 0 && to < photos.length) onIndex(to);
  };
  const shown = usePhoto(props.inspectionId, photos[index] ?? "");
  const src = shown?.kind === "ready" ? shown.src : undefined;
  return (
    <dialog
      ref={dialog}
      className="photo-viewer"
      aria-label={t("photoOf", { n: index + 1, count: photos.length })}
      onCancel={(e) => {
        // Escape: closed like the button, so the history entry goes too.
        e.preventDefault();
        close();
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft") go(index - 1);
        else if (e.key === "ArrowRight") go(index + 1);
        else if (e.key === "+" || e.key === "=") zoomBy(zoomStep);
        else if (e.key === "-") zoomBy(1 / zoomStep);
        else if (e.key === "0") setView(fitted);
        else return;
        e.preventDefault();
      }}
    >
      <div className="photo-viewer__bar">
        <p className="photo-viewer__count" aria-live="polite">
          {t("photoOf", { n: index + 1, count: photos.length })}
        </p>
        <button type="button" className="button photo-viewer__close" onClick={close}>
          {tc("close")}
        </button>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pinch, pan and wheel are for pointers; the same zoom is on the buttons and keys. */}
      <div
        ref={stage}
        className="photo-viewer__stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={onDoubleTap}
        onWheel={(e) => zoomBy(e.deltaY < 0 ? 1.2 : 1 / 1.2, fromCentre(e.clientX, e.clientY))}
      >
        {shown === undefined && <p className="photo-viewer__note">{t("photoLoading")}</p>}
        {shown?.kind === "missing" && (
          <p className="photo-viewer__note">{t(missingMessage[shown.reason])}</p>
        )}
        {src !== undefined && (
          <img
            key={src}
            className="photo-viewer__image"
            src={src}
            alt={t("photoAlt", { n: index + 1 })}
            decoding="async"
            draggable={false}
            data-scale={view.scale}
            onLoad={(e) =>
              setNatural({
                width: e.currentTarget.naturalWidth,
                height: e.currentTarget.naturalHeight,
              })
            }
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
          />
        )}
      </div>
      <div className="photo-viewer__tools">
        <button
          type="button"
          className="button photo-viewer__tool"
          aria-label={t("previousPhoto")}
          disabled={index <= 0}
          onClick={() => go(index - 1)}
        >
          <span aria-hidden="true">‹</span>
        </button>
        <button
          type="button"
          className="button photo-viewer__tool"
          aria-label={t("zoomOut")}
          disabled={view.scale <= 1}
          onClick={() => zoomBy(1 / zoomStep)}
        >
          <span aria-hidden="true">−</span>
        </button>
        <button
          type="button"
          className="button photo-viewer__tool"
          aria-label={t("zoomReset")}
          disabled={view.scale <= 1}
          onClick={() => setView(fitted)}
        >
          <svg {...iconProps} aria-hidden="true">
            <path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" />
          </svg>
        </button>
        <button
          type="button"
          className="button photo-viewer__tool"
          aria-label={t("zoomIn")}
          onClick={() => zoomBy(zoomStep)}
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="button photo-viewer__tool"
          aria-label={t("nextPhoto")}
          disabled={index >= photos.length - 1}
          onClick={() => go(index + 1)}
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </dialog>
  );
}
