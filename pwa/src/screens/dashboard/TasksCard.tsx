/** The next open tasks (overdue ones said in words), and the ways to all tasks and a new one. */
import type { NextTask } from "@hivekeep/proto";
import { Link } from "wouter";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { Card, Empty, Writable } from "../../ui/page.tsx";
import { dueState } from "../records/rules.ts";
import { dashboardMessages } from "./messages.ts";
import { dueWhen } from "./present.ts";

export function TasksCard(props: { readonly tasks: readonly NextTask[] }) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  const now = useNow();
  return (
    <Card title={t("tasksTitle")}>
      {props.tasks.length === 0 ? (
        <Empty>{t("tasksNone")}</Empty>
      ) : (
        <ul className="list">
          {props.tasks.map((task) => {
            const when = dueWhen(fmt, task.dueAt, now);
            return (
              <li key={task.id} className="list__item">
                <Link href={paths.tasks} className="list__link">
                  <span className="list__title">{task.title}</span>
                  <span className="list__meta">
                    {dueState({ done: false, dueAt: task.dueAt }, now) === "overdue" && (
                      <span className="badge badge--bad">{t("overdue")}</span>
                    )}
                    <span>{when === undefined ? t("noDue") : t("due", { when })}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <div className="form__actions">
        <Link href={paths.tasks} className="button button--secondary">
          {t("allTasks")}
        </Link>
        <Writable>
          <Link href={paths.newTask()} className="button button--secondary">
            {t("addTask")}
          </Link>
        </Writable>
      </div>
    </Card>
  );
}
