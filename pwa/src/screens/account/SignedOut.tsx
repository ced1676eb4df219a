/** Signed out in hosted mode: sign in, sign up, try the demo, or join from an invitation link. */
import { SignInScreen } from "../../components/SignInScreen.tsx";

export default function SignedOut(props: { onSignedIn: (token: string) => void }) {
  return (
    <main className="content">
      <SignInScreen onSignedIn={props.onSignedIn} />
    </main>
  );
}
