/**
 * The words of correcting and removing a record (issue 25): the edit forms' titles and each
 * delete's confirmation, which names the action and its consequence.
 */
import { defineMessages } from "../../i18n.ts";

export const changeMessages = defineMessages("record-changes", {
  en: {
    deleteQueen: "Delete queen",
    deleteQueenHistory:
      "Delete queen {{year}} ({{marking}}): she leaves this hive's queen history.",
    deleteQueenReignsAgain:
      "Delete queen {{year}} ({{marking}}): the queen before her, {{beforeYear}} ({{beforeMarking}}), reigns again.",
    deleteQueenQueenless:
      "Delete queen {{year}} ({{marking}}): no queen reigns in this hive then until you add one.",
    editTreatment: "Edit treatment",
    editTreatmentOf: "Edit treatment with {{product}}",
    saveChanges: "Save changes",
    deleteTreatment: "Delete treatment",
    deleteTreatmentConfirm:
      "Delete this treatment with {{product}} of {{date}}: it leaves the hive's treatment records and its withdrawal period.",
    editTask: "Edit task",
    edit: "Edit",
    editTaskNamed: "Edit task: {{title}}",
    deleteTask: "Delete task",
    deleteTaskConfirm: "Delete the task “{{title}}”: it leaves the task lists for good.",
  },
});
