/** The winter weight below which a hive "may be starving": one threshold, kept on this device. */
import { columnSpec } from "@hivekeep/client-core/core";
import { useClient } from "../../app/client.tsx";
import { useWinterWeight, writeWinterWeight } from "../../hooks/useWinterWeight.ts";
import { useMessages } from "../../i18n.ts";
import { NumberField } from "../../ui/forms.tsx";
import { Card } from "../../ui/page.tsx";
import { readingsMessages } from "../../ui/readings-messages.ts";

const weightColumn = columnSpec("inspection", "weight_kg");

export function WinterWeight() {
  const t = useMessages(readingsMessages);
  const { organizationId } = useClient();
  const kg = useWinterWeight(organizationId);
  return (
    <Card title={t("winterTitle")}>
      <NumberField
        label={t("winterLabel")}
        value={kg}
        unit="kg"
        column={weightColumn}
        hint={t("winterHint")}
        onChange={(v) => writeWinterWeight(organizationId, v)}
      />
    </Card>
  );
}
