/**
 * Every task the user may see (`/tasks`): the open ones first, in the service's order (by due
 * date, none last), overdue ones marked in words; the done ones below, folded away. A tick closes
 * a task, another reopens it; the last change can be undone at once.
 */
import "./task-list.css";
import type { Task } from "@hivekeep/proto";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { useClient, useLive, useReadOnly } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
import { paths } from "../../app/routes.tsx";
import { useMessages } from "../../i18n.ts";
import { Empty, ErrorNote, Loading, Page, useAction, Writable } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { splitTasks } from "./rules.ts";
import { TaskRow } from "./TaskRow.tsx";

export default function TaskList() {
  const t = useMessages(recordMessages);
  const client = useClient();
  const readOnly = useReadOnly();
  const data = useLive(async (c) => {
    const [tasks, hives, apiaries] = await Promise.all([
      listAll(
        (page) => c.tasks.listTasks({ page }),
        (r) => r.tasks,
      ),
      allHives(c),
      allApiaries(c),
    ]);
    return {
      tasks,
      hives: new Map(hives.map((h) => [h.id, h])),
      apiaryName: new Map(apiaries.map((a) => [a.id, a.name])),
    };
  }, []);
  const [last, setLast] = useState<{ id: string; title: string; done: boolean } | undefined>();
  const toggle = useAction(async (task: Task, done: boolean) => {
    await client.tasks.setTaskDone({ id: task.id, done });
    setLast({ id: task.id, title: task.title, done });
  });
  const undo = useAction(async () => {
    if (!last) return;
    await client.tasks.setTaskDone({ id: last.id, done: !last.done });
    setLast(undefined);
  });

  const now = new Date();
  const row = (task: Task) => (
    <TaskRow
      key={task.id}
      task={task}
      now={now}
      hiveName={data?.hives.get(task.hiveId)?.name}
      // A hive task names the apiary where the hive stands now.
      apiaryName={data?.apiaryName.get(data.hives.get(task.hiveId)?.apiaryId ?? task.apiaryId)}
      onDone={readOnly ? undefined : (done) => void toggle.run(task, done)}
    />
  );

  return (
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
      {data === undefined ? <Loading /> : <Lists tasks={data.tasks} row={row} />}
    </Page>
  );
}

function Lists(props: { tasks: readonly Task[]; row: (task: Task) => ReactNode }) {
  const t = useMessages(recordMessages);
  const { open, done } = splitTasks(props.tasks);
  if (props.tasks.length === 0) return <Empty>{t("noOpen")}</Empty>;
  return (
    <>
      <section className="records-tasks" aria-labelledby="records-open">
        <h2 className="card__title" id="records-open">
          {t("open")} ({open.length})
        </h2>
        {open.length === 0 ? (
          <Empty>{t("noOpen")}</Empty>
        ) : (
          <ul className="list">{open.map(props.row)}</ul>
        )}
      </section>
      {done.length > 0 && (
        <details className="records-done">
          <summary className="records-done__summary">{t("done", { count: done.length })}</summary>
          <ul className="list">{done.map(props.row)}</ul>
        </details>
      )}
    </>
  );
}
