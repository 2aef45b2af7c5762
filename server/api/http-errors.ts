/** JSON error answers shared by the API handlers: `{ message }` with a 4xx status. */
import type { Response } from "express";
import type { z } from "zod";
import { markPersonal } from "../http/shared-caching";

/** An error is that request's alone: no cache keeps it, not even on a route whose answers are shared. */
export function sendError(res: Response, status: number, message: string) {
  markPersonal(res);
  res.status(status).json({ message });
}

/** First issue of a Zod error as one readable sentence. */
export function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue?.message ?? "Invalid request"}`;
}
