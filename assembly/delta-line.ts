// The one-line rendering of a sbx.delta/1 object (the delta itself is computed in delta.ts).
import { DeltaView } from "./verdict-reader";

export function renderDeltaLine(d: DeltaView): string {
  if (d.firstRun) return "delta: first run";
  let s = d.summary;
  return "delta: " + (s !== null ? s : "(no summary)");
}
