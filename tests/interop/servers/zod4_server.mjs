// A TypeScript SDK server whose forms come from zod 4 models through zod's own
// `z.toJSONSchema(model, { io: "input" })` ("input": fields with a default are not required).
import * as z from "zod";
import { serve } from "./ts_profiles.mjs";

const Priority = { Low: 1, Normal: 2, High: 3 };

const profile = z.object({
  name: z.string().min(1).describe("Your full name"),
  email: z.email(),
  birthday: z.iso.date(),
  nickname: z.string().optional(),
  age: z.int().nullable(),
  team: z.string().nullable(),
  color: z.enum(["red", "green", "blue"]).default("blue"),
  priority: z.enum(Priority).default(Priority.Normal),
  tags: z.array(z.string()).default([]),
  newsletter: z.boolean().default(true),
});

const preferences = z.object({
  nickname: z.string().optional(),
  color: z.enum(["red", "green", "blue"]).default("blue"),
  priority: z.enum(Priority).default(Priority.Normal),
  tags: z.array(z.string()).default(["mcp"]),
  newsletter: z.boolean().default(true),
});

await serve("zod4-profiles", { profile, preferences }, (model) =>
  z.toJSONSchema(model, { io: "input" }),
);
