/**
 * Every task the user may see (`/tasks`): the open ones first, in the service's order (by due
 * date, none last), overdue ones marked in words; the done ones below, folded away. A tick closes
 * a task, another reopens it; the last change can be undone at once.
 */
import "./task-list.css";
import type { Task } from "@hivekeep/proto";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Empty, ErrorNote, LiveView, Loading, Page, useAction, Writable } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { type TaskList as Data, useTaskList } from "./queries.ts";
import { splitTasks } from "./rules.ts";
import { TaskRow } from "./TaskRow.tsx";

interface Changed {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
}

export default function TaskList() {
  const t = useMessages(recordMessages);
  const client = useClient();
  const live = useTaskList();
  const [last, setLast] = useState<Changed | undefined>();
  const toggle = useAction(async (task: Task, done: boolean) => {
    await client.tasks.setTaskDone({ id: task.id, done });
    setLast({ id: task.id, title: task.title, done });
  });
  const undo = useAction(async () => {
    if (!last) return;
    await client.tasks.setTaskDone({ id: last.id, done: !last.done });
    setLast(undefined);
  });
  const onDone = (task: Task, done: boolean) => void toggle.run(task, done);

  // The frame (title, New, the undo slot) shows while the tasks are read; a failure says so.
  const frame = (content: ReactNode) => (
    <Page
      title={t("tasks")}
      actions={
        <Writable>
          <Link href={paths.newTask()} className="button">
            {t("newTask")}
          </Link>
        </Writable>
      }
    >
      <div role="status" className="records-undo-slot">
        {last && (
          <p className="notice notice--info">
            <span className="notice__text">
              {last.done
                ? t("markedDone", { title: last.title })
                : t("markedOpen", { title: last.title })}
            </span>
            <button
              type="button"
              className="button button--secondary"
              disabled={undo.busy}
              onClick={() => void undo.run()}
            >
              {t("undo")}
            </button>
          </p>
        )}
      </div>
      <ErrorNote error={toggle.error ?? undo.error} />
      {content}
    </Page>
  );
  return (
    <LiveView live={live} back={paths.dashboard} loading={frame(<Loading />)}>
      {(data) => frame(<Lists data={data} onDone={onDone} />)}
    </LiveView>
  );
}

function Lists(props: {
  readonly data: Data;
  readonly onDone: (task: Task, done: boolean) => void;
}) {
  const t = useMessages(recordMessages);
  const readOnly = useReadOnly();
  const { tasks, names } = props.data;
  const { open, done } = splitTasks(tasks);
  const row = (task: Task): ReactNode => (
    <TaskRow
      key={task.id}
      task={task}
      hiveName={names.get(task.id)?.hiveName}
      apiaryName={names.get(task.id)?.apiaryName}
      onDone={readOnly ? undefined : (isDone) => props.onDone(task, isDone)}
      editHref={readOnly ? undefined : paths.editTask(task.id, "tasks")}
    />
  );
  if (tasks.length === 0) return <Empty>{t("noOpen")}</Empty>;
  return (
    <>
      <section className="records-tasks" aria-labelledby="records-open">
        <h2 className="card__title" id="records-open">
          {t("open")} ({open.length})
        </h2>
        {open.length === 0 ? (
          <Empty>{t("noOpen")}</Empty>
        ) : (
          <ul className="list">{open.map(row)}</ul>
        )}
      </section>
      {done.length > 0 && (
        <details className="records-done">
          <summary className="records-done__summary">{t("done", { count: done.length })}</summary>
          <ul className="list">{done.map(row)}</ul>
        </details>
      )}
    </>
  );
}
