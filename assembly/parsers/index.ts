// The parsers: one directory per family, the order they claim lines in ./order, the dispatcher in ./set.
export { ParserSet, setDispatchFilter } from "./set";
export { ParserId, CLAIM_ORDER, FINISH_ORDER } from "./order";
