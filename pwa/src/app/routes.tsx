/**
 * Every screen and its URL. Each screen is its own chunk (loaded on first use, precached by the
 * service worker for offline use), so the first visit loads only the shell and its screen.
 * Every hive, apiary and inspection has a URL that works offline once the app is installed.
 */
import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { Loading, NotFound } from "../ui/page.tsx";

const Dashboard = lazy(() => import("../screens/dashboard/Dashboard.tsx"));
const ApiaryList = lazy(() => import("../screens/apiaries/ApiaryList.tsx"));
const ApiaryForm = lazy(() => import("../screens/apiaries/ApiaryForm.tsx"));
const ApiaryPage = lazy(() => import("../screens/apiaries/ApiaryPage.tsx"));
const HiveList = lazy(() => import("../screens/hives/HiveList.tsx"));
const HiveForm = lazy(() => import("../screens/hives/HiveForm.tsx"));
const HivePage = lazy(() => import("../screens/hives/HivePage.tsx"));
const RelocateHive = lazy(() => import("../screens/hives/RelocateHive.tsx"));
const InspectionForm = lazy(() => import("../screens/inspections/InspectionForm.tsx"));
const InspectionPage = lazy(() => import("../screens/inspections/InspectionPage.tsx"));
const QueenForm = lazy(() => import("../screens/records/QueenForm.tsx"));
const TreatmentForm = lazy(() => import("../screens/records/TreatmentForm.tsx"));
const HarvestForm = lazy(() => import("../screens/records/HarvestForm.tsx"));
const TaskList = lazy(() => import("../screens/records/TaskList.tsx"));
const TaskForm = lazy(() => import("../screens/records/TaskForm.tsx"));
const Attention = lazy(() => import("../screens/sync/Attention.tsx"));
const Settings = lazy(() => import("../screens/settings/Settings.tsx"));
const ApiKeys = lazy(() => import("../screens/settings/ApiKeys.tsx"));
const Members = lazy(() => import("../screens/settings/Members.tsx"));
const Join = lazy(() => import("../screens/account/Join.tsx"));

/** Paths, for links: `href={paths.hive(id)}`. */
export const paths = {
  dashboard: "/",
  apiaries: "/apiaries",
  newApiary: "/apiaries/new",
  apiary: (id: string) => `/apiaries/${id}`,
  editApiary: (id: string) => `/apiaries/${id}/edit`,
  hives: "/hives",
  /** Optionally in an apiary: `/hives/new?apiary=…`. */
  newHive: (apiaryId?: string) => (apiaryId ? `/hives/new?apiary=${apiaryId}` : "/hives/new"),
  hive: (id: string) => `/hives/${id}`,
  editHive: (id: string) => `/hives/${id}/edit`,
  relocateHive: (id: string) => `/hives/${id}/relocate`,
  inspect: (hiveId: string) => `/hives/${hiveId}/inspect`,
  inspection: (id: string) => `/inspections/${id}`,
  newQueen: (hiveId: string) => `/hives/${hiveId}/queen`,
  editQueen: (queenId: string) => `/queens/${queenId}/edit`,
  newTreatment: (hiveId: string) => `/hives/${hiveId}/treatment`,
  newHarvest: (hiveId: string) => `/hives/${hiveId}/harvest`,
  tasks: "/tasks",
  /** Optionally for a hive or an apiary: `/tasks/new?hive=…`. */
  newTask: (of?: { hive?: string; apiary?: string }) =>
    of?.hive
      ? `/tasks/new?hive=${of.hive}`
      : of?.apiary
        ? `/tasks/new?apiary=${of.apiary}`
        : "/tasks/new",
  attention: "/sync",
  settings: "/settings",
  apiKeys: "/settings/api-keys",
  members: "/settings/members",
  /** An invitation link: the token rides in the fragment, so it never reaches a server log. */
  join: (token: string) => `/join#${token}`,
} as const;

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/" component={Dashboard} />
        <Route path="/apiaries" component={ApiaryList} />
        <Route path="/apiaries/new" component={ApiaryForm} />
        <Route path="/apiaries/:id/edit" component={ApiaryForm} />
        <Route path="/apiaries/:id" component={ApiaryPage} />
        <Route path="/hives" component={HiveList} />
        <Route path="/hives/new" component={HiveForm} />
        <Route path="/hives/:id/edit" component={HiveForm} />
        <Route path="/hives/:id/relocate" component={RelocateHive} />
        <Route path="/hives/:id/inspect" component={InspectionForm} />
        <Route path="/hives/:id/queen" component={QueenForm} />
        <Route path="/queens/:queenId/edit" component={QueenForm} />
        <Route path="/hives/:id/treatment" component={TreatmentForm} />
        <Route path="/hives/:id/harvest" component={HarvestForm} />
        <Route path="/hives/:id" component={HivePage} />
        <Route path="/inspections/:id" component={InspectionPage} />
        <Route path="/tasks" component={TaskList} />
        <Route path="/tasks/new" component={TaskForm} />
        <Route path="/sync" component={Attention} />
        <Route path="/settings" component={Settings} />
        <Route path="/settings/api-keys" component={ApiKeys} />
        <Route path="/settings/members" component={Members} />
        <Route path="/join" component={Join} />
        <Route>
          <NotFound back="/" />
        </Route>
      </Switch>
    </Suspense>
  );
}
