/** Terms and their values (`<dl className="facts">`), as the inspection page and the stock card show them. */
import type { ReactNode } from "react";
import "./facts.css";

/** A term and its value; nothing when there is no value (undefined, null or false). */
export function Fact(props: {
  readonly term: string;
  readonly children: ReactNode;
  /** A longer text: the whole row. */
  readonly wide?: boolean;
}) {
  if (props.children === undefined || props.children === null || props.children === false)
    return null;
  return (
    <div className={props.wide ? "facts__item facts__item--wide" : "facts__item"}>
      <dt className="facts__term">{props.term}</dt>
      <dd className="facts__value">{props.children}</dd>
    </div>
  );
}
