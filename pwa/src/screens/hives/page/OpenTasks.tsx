/** The stock card's open tasks, ticked done in place (a slip of the glove is undone by unticking). */
import type { Task } from "@hivekeep/proto";
import { useState } from "react";
import { useClient, useReadOnly } from "../../../app/client.tsx";
import { paths } from "../../../app/paths.ts";
import { useMessages } from "../../../i18n.ts";
import { ErrorNote, useAction } from "../../../ui/page.tsx";
import { TaskRow } from "../../records/TaskRow.tsx";
import { tasksWithDoneHere } from "../hive-logic.ts";
import { hiveMessages } from "../messages.ts";

export function OpenTasks(props: { readonly tasks: readonly Task[] }) {
  const t = useMessages(hiveMessages);
  const client = useClient();
  const readOnly = useReadOnly();
  // Tasks ticked done on this visit stay listed (ticked, struck through) so that a slip of the
  // glove is undone by unticking.
  const [doneHere, setDoneHere] = useState<readonly Task[]>([]);
  const mark = (task: Task, done: boolean) =>
    setDoneHere((list) => [...list.filter((x) => x.id !== task.id), ...(done ? [task] : [])]);
  const setDone = useAction(async (task: Task, done: boolean) => {
    mark(task, done); // at once: the tick answers the tap
    try {
      await client.tasks.setTaskDone({ id: task.id, done });
    } catch (err) {
      mark(task, !done);
      throw err;
    }
  });
  const rows = tasksWithDoneHere(props.tasks, doneHere);
  return (
    <div className="hive-stock__tasks">
      <h3 className="hive-stock__heading">{t("openTasks")}</h3>
      {rows.length === 0 ? (
        <p className="muted">{t("noTasks")}</p>
      ) : (
        <ul className="list">
          {rows.map(({ task, done }) => (
            <TaskRow
              key={task.id}
              task={task}
              done={done}
              showTarget={false}
              onDone={readOnly ? undefined : (d) => void setDone.run(task, d)}
              editHref={readOnly ? undefined : paths.editTask(task.id)}
            />
          ))}
        </ul>
      )}
      <ErrorNote error={setDone.error} />
    </div>
  );
}
