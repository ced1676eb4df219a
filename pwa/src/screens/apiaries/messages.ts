import { defineMessages } from "../../i18n.ts";

export const apiaryMessages = defineMessages("apiaries", {
  en: {
    title: "Apiaries",
    new: "New apiary",
    edit: "Edit apiary",
    empty: "No apiaries yet. Add the place where your hives stand.",
    hives_one: "{{count}} hive",
    hives_other: "{{count}} hives",
    name: "Name",
    address: "Address",
    lat: "Latitude",
    lng: "Longitude",
    coordinatesHint: "Decimal degrees, e.g. 48.137 and 11.575.",
    useLocation: "Use my location",
    locating: "Finding your location…",
    locationFailed: "Your location is not available: {{message}}",
    nameRequired: "Give the apiary a name.",
    hivesHere: "Hives here",
    noHives: "No hives stand here.",
    addHive: "Add a hive here",
    addTask: "Add a task",
    map: "Open in a map",
    deleteApiary: "Delete apiary",
    deleteApiaryConfirm: "Delete the apiary {{name}}: it leaves the list of apiaries.",
    deleteBlocked_one:
      "{{count}} hive still stands here. Move it to another apiary or delete it first; an apiary with hives cannot be deleted.",
    deleteBlocked_other:
      "{{count}} hives still stand here. Move them to another apiary or delete them first; an apiary with hives cannot be deleted.",
    created: "Created {{date}}",
  },
});
