import { defineMessages } from "../../i18n.ts";

export const chartMessages = defineMessages("charts", {
  en: {
    table: "Values as a table",
    tableFor: "Values as a table: {{title}}",
    tableCaption: "{{title}}: values",
    tableDate: "Date",
    tableMonth: "Month",
    tableNewest: "The newest {{shown}} of {{total}} measurements.",
    notMeasured: "not measured",
    chartLoading: "Loading the chart…",
    // The hive's measurements (HiveCharts).
    measurementsTitle: "Measurements",
    noMeasurements:
      "No measurements yet. Weight, temperature and humidity entered in an inspection or sent by a hive scale or climate sensor appear here as charts.",
    period: "Period",
    period30: "30 days",
    period365: "12 months",
    periodAll: "All",
    noneInPeriod: "No measurements in this period.",
    weight: "Weight",
    temperature: "Temperature",
    humidity: "Humidity",
    hiveWeight: "Hive weight",
    inside: "Inside the hive",
    outside: "Outside",
    seriesSummary_one: "{{series}}: {{count}} measurement on {{to}}, {{last}}.",
    seriesSummary_other:
      "{{series}}: {{count}} measurements from {{from}} to {{to}}, between {{min}} and {{max}}; latest {{last}}.",
    seriesNone: "{{series}}: not measured.",
  },
});
