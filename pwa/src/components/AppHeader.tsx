export function AppHeader() {
  return (
    <header className="app-header">
      <img className="app-header__logo" src="/icon.svg" alt="" width="40" height="40" />
      <h1 className="app-header__title">Hivekeep</h1>
    </header>
  );
}
