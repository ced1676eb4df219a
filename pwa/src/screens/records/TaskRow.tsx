/**
 * One task in a list: a big done checkbox ("Done: <title>"), the title, when it is due (overdue
 * in words, not only in colour), its priority, and what it is for (a hive, an apiary, or
 * personal). Used by the task list and the hive page's stock card:
 *
 *   <ul className="list"><TaskRow task={t} onDone={(done) => …} /></ul>
 */
import "./task-row.css";
import { type Task, TaskPriority } from "@hivekeep/proto";
import { Link } from "wouter";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { changeMessages } from "./change-messages.ts";
import { recordMessages } from "./messages.ts";
import { taskDueDate } from "./present.ts";
import { dueState } from "./rules.ts";

export function TaskRow(props: {
  readonly task: Task;
  /** Names to show for the task's hive and apiary; undefined: deleted (or not shown). */
  readonly hiveName?: string | undefined;
  readonly apiaryName?: string | undefined;
  /** Show what the task is for (leave off on the page of that hive). Default true. */
  readonly showTarget?: boolean;
  /** Undefined: the checkbox is shown but cannot be changed (a read-only session). */
  readonly onDone?: ((done: boolean) => void) | undefined;
  /** Shown as done or open regardless of the task (ticked a moment ago). Default task.done. */
  readonly done?: boolean;
  /** Where its edit is (none in a read-only session). */
  readonly editHref?: string | undefined;
}) {
  const t = useMessages(recordMessages);
  const tx = useMessages(changeMessages);
  const fmt = useFormat();
  const task = props.task;
  const now = useNow();
  const done = props.done ?? task.done;
  const state = dueState({ done, dueAt: task.dueAt }, now);
  // "Due 12 Jun 2026 (in 2 days)"; due today says so in its badge, and here only its time.
  const date = taskDueDate(fmt, task, state, now);
  const dueText =
    date === undefined
      ? t("noDue")
      : state === "today"
        ? date && t("dueTime", { time: date })
        : t("due", { date });
  return (
    <li className={`list__item records-task records-task--${state}`} data-state={state}>
      <label className="records-task__check">
        <input
          type="checkbox"
          checked={done}
          disabled={props.onDone === undefined}
          aria-label={t("doneLabel", { title: task.title })}
          onChange={(e) => props.onDone?.(e.target.checked)}
        />
      </label>
      <div className="records-task__body">
        <span className="list__title records-task__title">{task.title}</span>
        <span className="list__meta">
          {state === "overdue" && (
            <span className="badge badge--bad">
              <span aria-hidden="true">⚠ </span>
              {t("overdue")}
            </span>
          )}
          {state === "today" && <span className="badge badge--warn">{t("dueToday")}</span>}
          {dueText && <span>{dueText}</span>}
          {task.priority === TaskPriority.HIGH && (
            <span className="badge badge--warn">{t("highPriority")}</span>
          )}
          {task.priority === TaskPriority.LOW && <span>{t("lowPriority")}</span>}
          {props.showTarget !== false && (
            <Target task={task} hiveName={props.hiveName} apiaryName={props.apiaryName} />
          )}
        </span>
      </div>
      {props.editHref && (
        <Link
          href={props.editHref}
          className="button button--secondary records-task__edit"
          aria-label={tx("editTaskNamed", { title: task.title })}
        >
          {tx("edit")}
        </Link>
      )}
    </li>
  );
}

function Target(props: {
  task: Task;
  hiveName?: string | undefined;
  apiaryName?: string | undefined;
}) {
  const t = useMessages(recordMessages);
  const sep = useMessages(commonMessages)("labelSeparator");
  const { hiveId, apiaryId } = props.task;
  if (hiveId !== "") {
    return (
      <span>
        {t("hive")}
        {sep}
        <Link href={paths.hive(hiveId)}>{props.hiveName ?? t("unknownHive")}</Link>
        {props.apiaryName && <> · {props.apiaryName}</>}
      </span>
    );
  }
  if (apiaryId !== "") {
    return (
      <span>
        {t("apiary")}
        {sep}
        <Link href={paths.apiary(apiaryId)}>{props.apiaryName ?? t("unknownApiary")}</Link>
      </span>
    );
  }
  return <span className="badge">{t("personal")}</span>;
}
