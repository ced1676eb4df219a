/**
 * The delete of a record at the foot of its edit form: one button named by the action, which
 * asks once more with the action's name and its consequence ("Delete this treatment with Oxuvar
 * of 12 Jun 2026: it leaves the hive's treatment records …", buttons "Delete treatment" /
 * "Keep"), then deletes on the device and goes back to where the record was listed.
 *
 *   {treatment && <DeleteTreatment treatment={treatment} />}
 */
import "./record-delete.css";
import type { Queen, Task, Treatment } from "@hivekeep/proto";
import { useLocation } from "wouter";
import { useClient } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label } from "../../ui/messages.ts";
import { Card, ConfirmButton, ErrorNote, useAction } from "../../ui/page.tsx";
import { changeMessages } from "./change-messages.ts";
import { queenDeleteEffect } from "./present.ts";

/** The delete button of a record and the page to go to after it. */
function DeleteCard(props: {
  readonly label: string;
  readonly confirm: string;
  readonly remove: () => Promise<unknown>;
  readonly then: string;
}) {
  const tc = useMessages(commonMessages);
  const [, navigate] = useLocation();
  const action = useAction(async () => {
    await props.remove();
    navigate(props.then, { replace: true });
  });
  return (
    <Card className="records-delete">
      <ConfirmButton
        label={props.label}
        confirm={props.confirm}
        confirmLabel={props.label}
        keepLabel={tc("keep")}
        onConfirm={() => void action.run()}
        disabled={action.busy}
      />
      <ErrorNote error={action.error} />
    </Card>
  );
}

export function DeleteTreatment({ treatment: x }: { readonly treatment: Treatment }) {
  const tx = useMessages(changeMessages);
  const fmt = useFormat();
  const client = useClient();
  return (
    <DeleteCard
      label={tx("deleteTreatment")}
      confirm={tx("deleteTreatmentConfirm", { product: x.product, date: fmt.date(x.date) })}
      remove={() => client.treatments.deleteTreatment({ id: x.id })}
      then={paths.hive(x.hiveId)}
    />
  );
}

/** After it, back to the page the task form was opened from (`back`). */
export function DeleteTask(props: { readonly task: Task; readonly back: string }) {
  const tx = useMessages(changeMessages);
  const client = useClient();
  return (
    <DeleteCard
      label={tx("deleteTask")}
      confirm={tx("deleteTaskConfirm", { title: props.task.title })}
      remove={() => client.tasks.deleteTask({ id: props.task.id })}
      then={props.back}
    />
  );
}

/** `queens`: all of her hive's queens, to say who reigns after her. */
export function DeleteQueen(props: { readonly queen: Queen; readonly queens: readonly Queen[] }) {
  const tx = useMessages(changeMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const q = props.queen;
  const effect = queenDeleteEffect(q, props.queens);
  const she = { year: q.year, marking: label.marking(tc, q.marking) };
  const confirm =
    effect.kind === "history"
      ? tx("deleteQueenHistory", she)
      : effect.kind === "queenless"
        ? tx("deleteQueenQueenless", she)
        : tx("deleteQueenReignsAgain", {
            ...she,
            beforeYear: effect.queen.year,
            beforeMarking: label.marking(tc, effect.queen.marking),
          });
  return (
    <DeleteCard
      label={tx("deleteQueen")}
      confirm={confirm}
      remove={() => client.queens.deleteQueen({ id: q.id })}
      then={paths.hive(q.hiveId)}
    />
  );
}
