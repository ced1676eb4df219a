import { type FormEvent, useId, useState } from "react";
import type { NewApiary } from "../hooks/useApiaries.ts";
import { ErrorMessage } from "./ErrorMessage.tsx";

export interface AddApiaryFormProps {
  /** Rejects with an Error whose message is shown to the user. */
  readonly onAdd: (apiary: NewApiary) => Promise<void>;
}

export function AddApiaryForm({ onAdd }: AddApiaryFormProps) {
  const id = useId();
  const [name, setName] = useState("");
  const [address, setAddress] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [added, setAdded] = useState<string | undefined>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const apiary = { name: name.trim(), address: address.trim() };
    if (apiary.name === "") {
      setError("Give the apiary a name.");
      return;
    }
    setBusy(true);
    setError(undefined);
    setAdded(undefined);
    try {
      await onAdd(apiary);
      setName("");
      setAddress("");
      setAdded(apiary.name);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="card__title">
        Add an apiary
      </h2>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            name="name"
            required
            autoComplete="off"
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-address`}>
            Address <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-address`}
            name="address"
            autoComplete="street-address"
            maxLength={500}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
          />
        </div>
        {error && <ErrorMessage message={error} />}
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Adding…" : "Add apiary"}
        </button>
        <p className="form__note" role="status">
          {added ? `Added “${added}”.` : ""}
        </p>
      </form>
    </section>
  );
}
