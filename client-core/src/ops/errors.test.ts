import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { SubscribeResponseSchema, SyncService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { DomainError, type DomainErrorCode, RetryLaterError } from "../core/domain-error.ts";
import { errorInterceptor, toConnectError, UnavailableError } from "./errors.ts";

describe("toConnectError", () => {
  it("maps a database that is away to unavailable, keeping the driver's error out of the message", () => {
    const cause = Object.assign(new Error("write CONNECTION_CLOSED 10.0.0.5:5432"), {
      code: "CONNECTION_CLOSED",
    });
    const ce = toConnectError(new UnavailableError("the database is unavailable", { cause }));
    expect(ce.code).toBe(Code.Unavailable);
    expect(ce.rawMessage).toBe("the database is unavailable");
    expect(ce.cause).toBe(cause);
  });

  it("keeps the domain codes and hides anything else behind internal", () => {
    expect(toConnectError(new DomainError("not_found", "gone")).code).toBe(Code.NotFound);
    const ce = toConnectError(new Error("secret detail"));
    expect([ce.code, ce.rawMessage]).toEqual([Code.Internal, "internal error"]);
  });

  it.each([
    ["invalid", Code.InvalidArgument],
    ["not_found", Code.NotFound],
    ["precondition", Code.FailedPrecondition],
    ["unauthenticated", Code.Unauthenticated],
    ["permission_denied", Code.PermissionDenied],
    ["already_exists", Code.AlreadyExists],
    ["resource_exhausted", Code.ResourceExhausted],
  ] satisfies [DomainErrorCode, Code][])("maps %s to its code with the message", (code, want) => {
    const ce = toConnectError(new DomainError(code, "the reason"));
    expect([ce.code, ce.rawMessage, ce.metadata.has("Retry-After")]).toEqual([
      want,
      "the reason",
      false,
    ]);
  });

  it("sends the wait of a RetryLaterError as Retry-After", () => {
    const ce = toConnectError(new RetryLaterError("too many attempts", 42));
    expect([ce.code, ce.rawMessage, ce.metadata.get("Retry-After")]).toEqual([
      Code.ResourceExhausted,
      "too many attempts",
      "42",
    ]);
  });
});

describe("errorInterceptor on a stream", () => {
  /** A Subscribe that sends one message and then fails with `failure`. */
  const subscribeFailingWith = (failure: Error) => {
    const internals: unknown[] = [];
    const transport = createRouterTransport(
      (router) => {
        router.service(SyncService, {
          async *subscribe() {
            yield create(SubscribeResponseSchema, { cursor: "1" });
            throw failure;
          },
        });
      },
      { router: { interceptors: [errorInterceptor((cause) => internals.push(cause))] } },
    );
    const read = async () => {
      const got: string[] = [];
      try {
        for await (const m of createClient(SyncService, transport).subscribe({ cursor: "" })) {
          got.push(m.cursor);
        }
      } catch (err) {
        return { got, error: ConnectError.from(err) };
      }
      throw new Error("expected the stream to fail");
    };
    return { read, internals };
  };

  it("maps an error thrown while the stream runs, as for a unary call", async () => {
    const { read, internals } = subscribeFailingWith(
      new UnavailableError("the database is unavailable"),
    );
    const { got, error } = await read();
    expect(got).toEqual(["1"]);
    expect([error.code, error.rawMessage]).toEqual([
      Code.Unavailable,
      "the database is unavailable",
    ]);
    expect(internals).toEqual([]);
  });

  it("reports the cause of an internal error in a stream (the server logs it)", async () => {
    const boom = new Error("boom");
    const { read, internals } = subscribeFailingWith(boom);
    const { error } = await read();
    expect([error.code, error.rawMessage]).toEqual([Code.Internal, "internal error"]);
    expect(internals).toEqual([boom]);
  });
});
