import { defineMessages } from "../i18n.ts";

export const shellMessages = defineMessages("shell", {
  en: {
    navDashboard: "Overview",
    navApiaries: "Apiaries",
    navHives: "Hives",
    navTasks: "Tasks",
    navSettings: "Settings",
    mainNav: "Main",
    skip: "Skip to content",
    online: "Online",
    offline: "Offline",
    syncing: "Syncing…",
    pending_one: "{{count}} change waiting",
    pending_other: "{{count}} changes waiting",
    allSynced: "All changes synced",
    lastSynced: "Last synced {{when}}",
    neverSynced: "Not synced yet",
    attention_one: "{{count}} item needs attention",
    attention_other: "{{count}} items need attention",
    syncNow: "Sync now",
    sessionEnded:
      "Your session has ended. Sign in again to sync; your changes are kept on this device.",
    signIn: "Sign in",
    demo: "Demo (read-only)",
    openFailed: "Could not open your data on this device: {{message}}",
    firstOpenOffline: "Open Hivekeep once while online to set it up on this device.",
    updateAvailable: "A new version of Hivekeep is available.",
    updateWaiting_one:
      "A new version of Hivekeep is available. It will load once your {{count}} waiting change is synced.",
    updateWaiting_other:
      "A new version of Hivekeep is available. It will load once your {{count}} waiting changes are synced.",
    updateAfterSync_one: "Updating as soon as your {{count}} waiting change is synced.",
    updateAfterSync_other: "Updating as soon as your {{count}} waiting changes are synced.",
    update: "Update",
    notNow: "Not now",
  },
  de: {
    navDashboard: "Übersicht",
    navApiaries: "Stände",
    navHives: "Völker",
    navTasks: "Aufgaben",
    navSettings: "Einstellungen",
    mainNav: "Hauptmenü",
    skip: "Zum Inhalt springen",
    online: "Online",
    offline: "Offline",
    syncing: "Synchronisiert…",
    pending_one: "{{count}} Änderung wartet",
    pending_other: "{{count}} Änderungen warten",
    allSynced: "Alles synchronisiert",
    lastSynced: "Zuletzt synchronisiert {{when}}",
    neverSynced: "Noch nicht synchronisiert",
    attention_one: "{{count}} Eintrag braucht Aufmerksamkeit",
    attention_other: "{{count}} Einträge brauchen Aufmerksamkeit",
    syncNow: "Jetzt synchronisieren",
    sessionEnded:
      "Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an, um zu synchronisieren; Ihre Änderungen bleiben auf diesem Gerät.",
    signIn: "Anmelden",
    demo: "Demo (nur lesen)",
    openFailed: "Ihre Daten auf diesem Gerät konnten nicht geöffnet werden: {{message}}",
    firstOpenOffline:
      "Öffnen Sie Hivekeep einmal mit Verbindung, um es auf diesem Gerät einzurichten.",
    updateAvailable: "Eine neue Version von Hivekeep ist verfügbar.",
    updateWaiting_one:
      "Eine neue Version von Hivekeep ist verfügbar. Sie wird geladen, sobald Ihre {{count}} wartende Änderung synchronisiert ist.",
    updateWaiting_other:
      "Eine neue Version von Hivekeep ist verfügbar. Sie wird geladen, sobald Ihre {{count}} wartenden Änderungen synchronisiert sind.",
    updateAfterSync_one:
      "Aktualisierung, sobald Ihre {{count}} wartende Änderung synchronisiert ist.",
    updateAfterSync_other:
      "Aktualisierung, sobald Ihre {{count}} wartenden Änderungen synchronisiert sind.",
    update: "Aktualisieren",
    notNow: "Später",
  },
});
