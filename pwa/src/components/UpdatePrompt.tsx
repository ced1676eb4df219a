import { useRegisterSW } from "virtual:pwa-register/react";

/**
 * Registers the service worker and offers a waiting new version; nothing
 * reloads until the user says so (registerType "prompt").
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();

  if (!needRefresh) return null;
  return (
    <div className="notice" role="status">
      <p className="notice__text">A new version of Hivekeep is available.</p>
      <div className="notice__actions">
        <button type="button" className="button" onClick={() => void updateServiceWorker()}>
          Update
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setNeedRefresh(false)}
        >
          Not now
        </button>
      </div>
    </div>
  );
}
