/**
 * A task: a new one (`/tasks/new`, or `?hive=…` / `?apiary=…` from a hive's or an apiary's page,
 * which preselects it), or the edit of one (`/tasks/:id/edit`, from its row; deleted there too).
 * A task is for a hive, an apiary, or personal (only its author sees it). A due date names a
 * day: it is stored as the end of that day, so the task is overdue from the next morning; it is
 * a planned date, so it may lie in the future. After saving, back to the page the form was opened
 * from (an edit: the task list when opened from there, else the task's hive or apiary).
 */
import { columnSpec } from "@hivekeep/client-core/core";
import "./task-form.css";
import { type Task, TaskPriority } from "@hivekeep/proto";
import { useState } from "react";
import { useLocation, useRoute, useSearch } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths, routes } from "../../app/paths.ts";
import { toDate, toTimestamp } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  Choice,
  DateField,
  FormFooter,
  focusFirstInvalid,
  SelectField,
  TextField,
} from "../../ui/forms.tsx";
import { commonMessages, label, priorities } from "../../ui/messages.ts";
import { LiveView, Page, ReadOnlyPage, useAction } from "../../ui/page.tsx";
import { changeMessages } from "./change-messages.ts";
import { recordMessages } from "./messages.ts";
import { type TaskFormData, useTaskForm } from "./queries.ts";
import { DeleteTask } from "./RecordDelete.tsx";
import { addDays, endOfDay, taskOrigin } from "./rules.ts";

type Target = "hive" | "apiary" | "personal";

export default function TaskForm() {
  const search = useSearch();
  const [editing, params] = useRoute(routes.editTask);
  const taskId = editing ? params.id : undefined;
  const origin: { hive?: string; apiary?: string; taskId?: string } =
    taskId === undefined ? taskOrigin(search) : { taskId };
  const fromList = new URLSearchParams(search).get("from") === "tasks";
  // Not found for a link naming a task, a hive or an apiary that is not on this device.
  const options = useTaskForm(origin);
  return (
    <LiveView live={options} back={paths.tasks}>
      {(o) => (
        // Keyed by where it was opened from: a task for another hive or apiary starts afresh.
        <Form
          key={`${origin.hive ?? ""}/${origin.apiary ?? ""}/${o.task?.id ?? ""}`}
          back={formBack(origin, o.task, fromList)}
          options={o}
        />
      )}
    </LiveView>
  );
}

/** Where the form goes back to: the page it was opened from, or the edited task's own page. */
function formBack(
  origin: { hive?: string; apiary?: string },
  task: Task | undefined,
  fromList: boolean,
): string {
  const of = task && !fromList ? { hive: task.hiveId, apiary: task.apiaryId } : origin;
  if (of.hive) return paths.hive(of.hive);
  if (of.apiary) return paths.apiary(of.apiary);
  return paths.tasks;
}

function Form(props: { back: string; options: TaskFormData }) {
  const t = useMessages(recordMessages);
  const tx = useMessages(changeMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const today = useNow();
  const { back, options } = props;
  const [task] = useState(options.task);
  const origin = taskOrigin(useSearch());
  const start = task ? { hive: task.hiveId, apiary: task.apiaryId } : origin;

  const [title, setTitle] = useState(task?.title ?? "");
  const [due, setDue] = useState<Date | undefined>(task && toDate(task.dueAt));
  // A task without a priority reads as Normal, as its row shows it.
  const [priority, setPriority] = useState<TaskPriority>(
    task?.priority ? task.priority : TaskPriority.NORMAL,
  );
  const [target, setTarget] = useState<Target>(
    start.hive ? "hive" : start.apiary ? "apiary" : "personal",
  );
  const [hiveId, setHiveId] = useState(start.hive ?? "");
  const [apiaryId, setApiaryId] = useState(start.apiary ?? "");
  const [titleError, setTitleError] = useState<string | undefined>();
  const [targetError, setTargetError] = useState<string | undefined>();

  const save = useAction(async () => {
    const fields = {
      title: title.trim(),
      hiveId: target === "hive" ? hiveId : "",
      apiaryId: target === "apiary" ? apiaryId : "",
      priority,
      ...(due ? { dueAt: toTimestamp(endOfDay(due)) } : {}),
    };
    // A due date left as it was keeps its exact time, and a priority never set stays unset
    // while it reads Normal (an edit records only what it changes).
    if (task?.priority === TaskPriority.UNSPECIFIED && priority === TaskPriority.NORMAL) {
      fields.priority = TaskPriority.UNSPECIFIED;
    }
    const kept = task?.dueAt && due?.getTime() === toDate(task.dueAt)?.getTime();
    if (kept) fields.dueAt = task.dueAt;
    if (task) {
      // UpdateTask overwrites title, hive, apiary, due date and priority (done stays).
      const { dueAt: _, ...rest } = task;
      await client.tasks.updateTask({ task: { ...rest, ...fields } });
    } else {
      await client.tasks.createTask(fields);
    }
    navigate(back, { replace: true });
  });

  const heading = task ? tx("editTask") : t("newTask");
  if (readOnly) return <ReadOnlyPage title={heading} back={back} />;

  const apiaryName = new Map(options.apiaries.map((a) => [a.id, a.name]));
  const hiveOptions = [
    { value: "", label: t("chooseHive") },
    ...options.hives
      .map((h) => ({
        value: h.id,
        label: t("hiveAt", {
          hive: h.name,
          apiary: apiaryName.get(h.apiaryId) ?? t("unknownApiary"),
        }),
      }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  const apiaryOptions = [
    { value: "", label: t("chooseApiary") },
    ...options.apiaries.map((a) => ({ value: a.id, label: a.name })),
  ];
  const quick = [
    { label: t("today"), date: today },
    { label: t("tomorrow"), date: addDays(today, 1) },
    { label: t("inAWeek"), date: addDays(today, 7) },
  ];
  const sameDay = (a: Date | undefined, b: Date) => a?.toDateString() === b.toDateString();

  return (
    <Page title={heading} back={back}>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const titleOk = title.trim() !== "";
          const targetOk =
            target === "personal" || (target === "hive" ? hiveId !== "" : apiaryId !== "");
          setTitleError(titleOk ? undefined : t("titleRequired"));
          setTargetError(
            targetOk ? undefined : target === "hive" ? t("hiveRequired") : t("apiaryRequired"),
          );
          if (titleOk && targetOk) void save.run();
          else focusFirstInvalid(e.currentTarget);
        }}
      >
        <TextField
          label={t("title")}
          value={title}
          onChange={(v) => {
            setTitle(v);
            if (v.trim() !== "") setTitleError(undefined);
          }}
          hint={t("titleHint")}
          error={titleError}
          required
          autoFocus
          maxLength={columnSpec("task", "title").maxLength}
        />
        <div className="records-due">
          <DateField label={t("dueDate")} value={due} onChange={setDue} dateOnly />
          <fieldset className="records-due__quick" aria-label={t("quickDue")}>
            {quick.map((q) => (
              <button
                key={q.label}
                type="button"
                className="button button--secondary"
                aria-pressed={sameDay(due, q.date)}
                onClick={() => setDue(q.date)}
              >
                {q.label}
              </button>
            ))}
            <button
              type="button"
              className="button button--secondary"
              aria-pressed={due === undefined}
              onClick={() => setDue(undefined)}
            >
              {t("noDate")}
            </button>
          </fieldset>
        </div>
        <Choice
          label={t("priority")}
          value={priority}
          options={priorities.map((p) => ({ value: p, label: label.priority(tc, p) }))}
          onChange={(p) => setPriority(p ?? TaskPriority.NORMAL)}
        />
        <Choice<Target>
          label={t("target")}
          value={target}
          options={[
            { value: "hive", label: t("targetHive") },
            { value: "apiary", label: t("targetApiary") },
            { value: "personal", label: t("targetPersonal") },
          ]}
          onChange={(v) => {
            setTarget(v ?? "personal");
            setTargetError(undefined);
          }}
        />
        {target === "hive" &&
          (options.hives.length === 0 ? (
            <p className="muted">{t("noHivesYet")}</p>
          ) : (
            <SelectField
              label={t("hive")}
              value={hiveId}
              options={hiveOptions}
              onChange={(v) => {
                setHiveId(v);
                setTargetError(undefined);
              }}
              required
            />
          ))}
        {target === "apiary" &&
          (options.apiaries.length === 0 ? (
            <p className="muted">{t("noApiariesYet")}</p>
          ) : (
            <SelectField
              label={t("apiary")}
              value={apiaryId}
              options={apiaryOptions}
              onChange={(v) => {
                setApiaryId(v);
                setTargetError(undefined);
              }}
              required
            />
          ))}
        {target === "personal" && <p className="field__hint">{t("personalHint")}</p>}
        {targetError && (
          <p className="field__error" role="alert">
            {targetError}
          </p>
        )}
        <FormFooter action={save} label={task ? tx("saveChanges") : t("saveTask")} big />
      </form>
      {task && <DeleteTask task={task} back={back} />}
    </Page>
  );
}
