import type { ColumnSpec } from "@hivekeep/client-core/core";
import { useEffect, useState } from "react";
import { useSyncStatus } from "../../app/client.tsx";
import { useFormat } from "../../format.ts";
import { usePhotoKeepDaysSetting, writePhotoKeepDays } from "../../hooks/usePhotoKeepDays.ts";
import { useMessages } from "../../i18n.ts";
import { NumberField } from "../../ui/forms.tsx";
import { Card } from "../../ui/page.tsx";
import { settingsMessages } from "./messages.ts";
import { formatBytes, readStorage, type StorageInfo } from "./storage.ts";

/** Days of photos kept ahead: whole days, up to ten years. */
const keepDaysColumn: ColumnSpec = { type: "int", min: 0, max: 3650 };

/**
 * What this device holds: storage used, whether the browser may clear it, changes waiting, and
 * how many days of photos it keeps for use offline.
 */
export function Device() {
  const t = useMessages(settingsMessages);
  const fmt = useFormat();
  const { pending } = useSyncStatus();
  const keepDays = usePhotoKeepDaysSetting();
  const [info, setInfo] = useState<StorageInfo | undefined>();
  const [denied, setDenied] = useState(false);
  const [reads, setReads] = useState(0);
  const storage = typeof navigator === "undefined" ? undefined : navigator.storage;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reads asks again after persist().
  useEffect(() => {
    let live = true;
    void readStorage(storage).then((i) => {
      if (live) setInfo(i);
    });
    return () => {
      live = false;
    };
  }, [storage, reads]);

  async function persist() {
    const granted = await storage?.persist?.().catch(() => false);
    setDenied(granted !== true);
    setReads((n) => n + 1);
  }

  return (
    <Card title={t("device")}>
      <p>
        {info?.usage !== undefined && info.quota !== undefined
          ? t("storageUsed", {
              used: formatBytes(fmt.locale, info.usage),
              quota: formatBytes(fmt.locale, info.quota),
            })
          : info !== undefined
            ? t("storageUnknown")
            : ""}
      </p>
      {info?.persisted === true && <p>{t("persisted")}</p>}
      {info?.persisted === false && (
        <>
          <p className="muted">{t("notPersisted")}</p>
          {storage?.persist && (
            <div className="form__actions">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => void persist()}
              >
                {t("persist")}
              </button>
            </div>
          )}
          {denied && (
            <p className="notice notice--info" role="status">
              {t("persistDenied")}
            </p>
          )}
        </>
      )}
      <p className="muted">{pending > 0 ? t("pending", { count: pending }) : t("allSynced")}</p>
      <NumberField
        label={t("photoKeepLabel")}
        value={keepDays}
        unit={t("photoKeepUnit")}
        column={keepDaysColumn}
        hint={t("photoKeepHint")}
        onChange={(v) => writePhotoKeepDays(v)}
      />
    </Card>
  );
}
