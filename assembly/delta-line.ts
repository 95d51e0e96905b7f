// The one-line rendering of a sbx.delta/1 object (the delta itself is computed in delta.ts).
import { JValue } from "./util/json";

export function renderDeltaLine(d: JValue): string {
  if (d.get("first_run").bool()) return "delta: first run";
  return "delta: " + d.get("summary").str("(no summary)");
}
