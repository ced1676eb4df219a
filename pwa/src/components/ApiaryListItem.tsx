import type { Apiary } from "@hivekeep/proto";

export interface ApiaryListItemProps {
  readonly apiary: Apiary;
}

function hiveCount(n: number): string {
  if (n === 0) return "No hives";
  return n === 1 ? "1 hive" : `${n} hives`;
}

export function ApiaryListItem({ apiary }: ApiaryListItemProps) {
  return (
    <li className="apiary">
      <div className="apiary__main">
        <span className="apiary__name">{apiary.name}</span>
        <span className="apiary__address">{apiary.address || "No address"}</span>
      </div>
      <span className="apiary__hives">{hiveCount(apiary.hiveCount)}</span>
    </li>
  );
}
