// The conversation as the harness keeps it (close to the Anthropic Messages shape); each network
// backend converts it to and from its own wire format.
export type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> } | { type: 'tool_result'; tool_use_id: string; content: string };

export interface Message {
  role: 'user' | 'assistant';
  content: Block[];
}

export interface ToolDef {
  name: string;
  description: string;
  input_schema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
}

export interface Usage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolDef[];
  maxTokens: number;
  seed: number;
}
export interface ModelReply {
  content: Block[];
  usage: Usage;
  model: string;
}

export interface Backend {
  /** e.g. "anthropic:claude-sonnet-4-20250514", "scripted:oracle". */
  readonly name: string;
  complete(req: ModelRequest): Promise<ModelReply>;
}

export const zeroUsage = (): Usage => ({ input: 0, output: 0, cache_read: 0, cache_write: 0 });
