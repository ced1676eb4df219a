/**
 * "Now" for what a screen says relative to today ("3 days ago", "due tomorrow", running
 * withdrawal periods) and for a form's default date. Screens take it from `useNow()`, never from
 * `new Date()` in a component, so one place decides it: the device's clock at render (the wall
 * clock corrected by the offset to the server's, `client.now()`: the time the local services
 * record with, so a phone whose clock runs ahead proposes no date they refuse as "in the
 * future"), the wall clock outside a session, or a fixed time a test (or a story) provides.
 */
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { useOptionalClient } from "./client.tsx";

const NowContext = createContext<(() => Date) | undefined>(undefined);

/** Fixes "now" for everything below (component tests). */
export function NowProvider(props: { readonly now: Date; readonly children: ReactNode }) {
  const fixed = props.now;
  return <NowContext.Provider value={() => fixed}>{props.children}</NowContext.Provider>;
}

/**
 * The time screens measure "today" against: the device's server-corrected clock at render (the
 * wall clock outside a session) unless a provider fixes it.
 */
export function useNow(): Date {
  const fixed = useContext(NowContext);
  const client = useOptionalClient();
  if (fixed) return fixed();
  return client ? client.now() : new Date();
}

/**
 * "Now" as a function, for a live query that runs again later (each run asks for the time
 * then): the fixed time of a provider, the device's corrected clock, or the wall clock.
 */
export function useClock(): () => Date {
  const fixed = useContext(NowContext);
  const client = useOptionalClient();
  return useMemo(() => fixed ?? (client ? () => client.now() : () => new Date()), [fixed, client]);
}
