/**
 * The router: every route of `paths.ts` and its screen. Each screen is its own chunk (loaded on
 * first use, precached by the service worker for offline use), so the first visit loads only the
 * shell and its screen. Every hive, apiary and inspection has a URL that works offline once the
 * app is installed. Screens link with `paths` (paths.ts) and never import this module.
 */
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { Loading, NotFound } from "../ui/page.tsx";
import { type RouteName, routesInMatchOrder } from "./paths.ts";

const ApiaryForm = lazy(() => import("../screens/apiaries/ApiaryForm.tsx"));
const HiveForm = lazy(() => import("../screens/hives/HiveForm.tsx"));
const QueenForm = lazy(() => import("../screens/records/QueenForm.tsx"));
const TreatmentForm = lazy(() => import("../screens/records/TreatmentForm.tsx"));
const TaskForm = lazy(() => import("../screens/records/TaskForm.tsx"));

/** The screen of every route (the type asks for one per route name). */
const screens: { readonly [K in RouteName]: LazyExoticComponent<ComponentType> } = {
  dashboard: lazy(() => import("../screens/dashboard/Dashboard.tsx")),
  apiaries: lazy(() => import("../screens/apiaries/ApiaryList.tsx")),
  newApiary: ApiaryForm,
  apiary: lazy(() => import("../screens/apiaries/ApiaryPage.tsx")),
  editApiary: ApiaryForm,
  hives: lazy(() => import("../screens/hives/HiveList.tsx")),
  newHive: HiveForm,
  hive: lazy(() => import("../screens/hives/HivePage.tsx")),
  editHive: HiveForm,
  relocateHive: lazy(() => import("../screens/hives/RelocateHive.tsx")),
  stockCard: lazy(() => import("../screens/print/StockCardPrint.tsx")),
  inspect: lazy(() => import("../screens/inspections/InspectionForm.tsx")),
  newQueen: QueenForm,
  newTreatment: TreatmentForm,
  newHarvest: lazy(() => import("../screens/records/HarvestForm.tsx")),
  inspection: lazy(() => import("../screens/inspections/InspectionPage.tsx")),
  editInspection: lazy(() => import("../screens/inspections/InspectionEdit.tsx")),
  editTreatment: TreatmentForm,
  editQueen: QueenForm,
  tasks: lazy(() => import("../screens/records/TaskList.tsx")),
  newTask: TaskForm,
  editTask: TaskForm,
  attention: lazy(() => import("../screens/sync/Attention.tsx")),
  register: lazy(() => import("../screens/print/Register.tsx")),
  settings: lazy(() => import("../screens/settings/Settings.tsx")),
  apiKeys: lazy(() => import("../screens/settings/ApiKeys.tsx")),
  members: lazy(() => import("../screens/settings/Members.tsx")),
  records: lazy(() => import("../screens/records-io/RecordsScreen.tsx")),
  join: lazy(() => import("../screens/account/Join.tsx")),
};

const ordered = routesInMatchOrder();

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        {ordered.map(({ name, pattern }) => (
          <Route key={name} path={pattern} component={screens[name]} />
        ))}
        <Route>
          <NotFound back="/" />
        </Route>
      </Switch>
    </Suspense>
  );
}
