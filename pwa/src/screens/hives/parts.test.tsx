import { HiveStatus } from "@hivekeep/proto";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { HiveStatusBadge } from "./parts.tsx";

describe("HiveStatusBadge", () => {
  it("is green for a kept colony, a warning for a queenless one, plain for a lost one", () => {
    render(
      <>
        <HiveStatusBadge status={HiveStatus.ACTIVE} />
        <HiveStatusBadge status={HiveStatus.QUEENLESS} />
        <HiveStatusBadge status={HiveStatus.LOST} />
      </>,
    );
    expect(screen.getByText("Active").className).toBe("badge badge--ok");
    expect(screen.getByText("Queenless").className).toBe("badge badge--warn");
    expect(screen.getByText("Lost").className).toBe("badge");
  });
});
