/**
 * "Now" for what a screen says relative to today ("3 days ago", "due tomorrow", running
 * withdrawal periods). Screens take it from `useNow()`, never from `new Date()` in a component,
 * so one place decides it: the clock at render, or a fixed time a test (or a story) provides.
 */
import { createContext, type ReactNode, useContext } from "react";

const NowContext = createContext<(() => Date) | undefined>(undefined);

/** Fixes "now" for everything below (component tests). */
export function NowProvider(props: { readonly now: Date; readonly children: ReactNode }) {
  const fixed = props.now;
  return <NowContext.Provider value={() => fixed}>{props.children}</NowContext.Provider>;
}

/** The time screens measure "today" against: the clock at render unless a provider fixes it. */
export function useNow(): Date {
  const fixed = useContext(NowContext);
  return fixed ? fixed() : new Date();
}
