/**
 * Throws on purpose when ENABLE_ERROR_PROBE=true, so tests can see the route error fallback
 * (HTTP 500, logged with the request id). Otherwise it does not exist (404).
 */
import { data } from "react-router";
import type { Route } from "./+types/error-probe";

export async function loader({ context }: Route.LoaderArgs) {
  if (!context.services.config.ENABLE_ERROR_PROBE) throw data(null, { status: 404 });
  throw new Error("error probe: deliberate failure for tests");
}

export default function ErrorProbe() {
  return null;
}
