import type { Apiary } from "@hivekeep/proto";
import { useCallback, useEffect, useState } from "react";
import { apiaryClient, describeError } from "../api.ts";
import { useFeedPokes } from "./useFeedPokes.ts";

export interface NewApiary {
  readonly name: string;
  readonly address: string;
}

export interface ApiariesState {
  readonly apiaries: readonly Apiary[];
  /** Every apiary on the server; more than apiaries.length when the list is cut short. */
  readonly total: number;
  readonly loading: boolean;
  readonly error: string | undefined;
  reload(): Promise<void>;
  /** Creates the apiary and reloads the list; rejects with a user-facing message. */
  add(apiary: NewApiary): Promise<void>;
}

const pageSize = 500;

/** The apiaries of the server, loaded on mount and whenever the server's feed advances. */
export function useApiaries(): ApiariesState {
  const [apiaries, setApiaries] = useState<readonly Apiary[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const res = await apiaryClient.listApiaries({ page: { pageSize } });
      setApiaries(res.apiaries);
      setTotal(res.page?.total ?? res.apiaries.length);
      setError(undefined);
    } catch (err) {
      setError(describeError(err, "load the apiaries"));
    } finally {
      setLoading(false);
    }
  }, []);

  const add = useCallback(
    async ({ name, address }: NewApiary) => {
      try {
        await apiaryClient.createApiary({ name, address });
      } catch (err) {
        throw new Error(describeError(err, "add the apiary"));
      }
      await reload();
    },
    [reload],
  );

  useEffect(() => {
    void reload();
  }, [reload]);
  // Changes written elsewhere (another device, the API) show up without a reload.
  useFeedPokes(() => void reload());

  return { apiaries, total, loading, error, reload, add };
}
