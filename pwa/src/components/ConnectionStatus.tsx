export interface ConnectionStatusProps {
  readonly online: boolean;
  /** The app shell is cached by the service worker. */
  readonly availableOffline: boolean;
}

export function ConnectionStatus({ online, availableOffline }: ConnectionStatusProps) {
  return (
    <p className={`status ${online ? "status--online" : "status--offline"}`} role="status">
      <span className="status__dot" aria-hidden="true" />
      <span>
        {online ? "Online" : "Offline — changes cannot be saved until you are back online."}
        {online && availableOffline && <span className="muted"> · Available offline</span>}
      </span>
    </p>
  );
}
