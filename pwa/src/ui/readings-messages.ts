/**
 * Words of readings and weight alerts (issue 29), shared by the overview, the hive page and
 * the settings: a scale's latest values and last contact, "possible swarm", "may be starving"
 * and the winter weight setting.
 */
import { defineMessages } from "../i18n.ts";

export const readingsMessages = defineMessages("readings", {
  en: {
    alertsTitle: "Alerts",
    swarm: "Possible swarm",
    swarmText: "The weight fell from {{from}} to {{to}} within an hour ({{when}}).",
    starving: "May be starving",
    starvingText: "{{kg}} on {{date}}: below your winter weight of {{threshold}}.",
    latestTitle: "Latest readings",
    scaleContact: "Scale last contact: {{when}}",
    readingsCount_one: "{{count}} reading since {{date}}",
    readingsCount_other: "{{count}} readings since {{date}}",
    winterTitle: "Winter weight alert",
    winterLabel: "Warn when a hive weighs less than",
    winterHint:
      "In winter (November to March; May to September south of the equator) a hive whose latest weight is below this may be starving. For all hives, kept on this device. Empty: no alert.",
  },
});
