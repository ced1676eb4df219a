import { defineMessages, type Words } from "../../i18n.ts";

export const recordsIoMessages = defineMessages("recordsIo", {
  en: {
    title: "Your records",
    settingsLink: "Your records",
    settingsLinkText: "Take your records out as a backup or spreadsheets, or bring records in.",
    intro: "Everything here works on this device, also offline.",

    // Export
    export: "Take your records out",
    backup: "Backup (JSON)",
    backupText:
      "Every record with its photos, to keep safe or to move to another Hivekeep. Restoring it loses nothing.",
    zip: "Spreadsheets (ZIP)",
    zipText: "One CSV file per kind of record, in English, for any spreadsheet program.",
    xlsx: "Spreadsheets (XLSX)",
    xlsxText: "One Excel workbook with a sheet per kind of record, in English.",
    preparing: "Preparing {{file}}…",
    saved: "Saved {{file}}.",
    exportFailed: "The file could not be made: {{message}}",

    // Import
    import: "Bring records in",
    importText:
      "A Hivekeep backup, an OpenBeehive backup, or a spreadsheet of inspections saved as CSV (columns such as date, apiary, hive, weight). You see what it holds before anything is written.",
    chooseFile: "Choose a file",
    chooseOther: "Choose another file",
    checking: "Checking {{file}}…",
    readFailed: "“{{file}}” could not be read: {{message}}",
    checkFailed: "“{{file}}” cannot be imported: {{message}}",
    "format.hivekeep": "Hivekeep backup",
    "format.openbeehive": "OpenBeehive backup",
    "format.inspections-csv": "Inspections (CSV)",
    fileIs: "{{file}}: {{format}}",
    kind: "Kind",
    new: "New",
    existing: "Already here",
    "kind.apiary": "Apiaries",
    "kind.hive": "Hives",
    "kind.placement": "Placements",
    "kind.inspection": "Inspections",
    "kind.queen": "Queens",
    "kind.task": "Tasks",
    "kind.treatment": "Treatments",
    "kind.harvest": "Harvests",
    "kind.event": "Timeline events",
    notCarried: "Not carried over",
    notCarriedText: "These values of the file have no place in Hivekeep and stay behind:",
    notCarriedRow_one: "{{what}}: {{count}} record",
    notCarriedRow_other: "{{what}}: {{count}} records",
    problems_one: "{{count}} problem",
    problems_other: "{{count}} problems",
    problemsText:
      "Nothing is imported while the file has problems. Correct them in the file and choose it again.",
    line: "Line {{line}}",
    column: "column {{column}}",
    record: "{{kind}} {{id}}",
    nothingNew: "Everything in this file is already here. There is nothing to import.",
    importRecords_one: "Import {{count}} record",
    importRecords_other: "Import {{count}} records",
    importing: "Importing…",
    imported_one: "Imported {{count}} record. It reaches your other devices when this one syncs.",
    imported_other:
      "Imported {{count}} records. They reach your other devices when this one syncs.",
    importFailed: "Nothing was imported: {{message}}",
    toHives: "Go to your hives",
  },
});

export type RecordsIoWords = Words<typeof recordsIoMessages>;
