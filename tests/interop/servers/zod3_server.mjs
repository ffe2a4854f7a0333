// A TypeScript SDK server whose forms come from zod 3 models through `zod-to-json-schema`
// (the converter zod 3 users were told to use). zod 3 is installed as the npm alias `zod3`
// (package.json), since the SDK's own `zod` is version 4.
import { z } from "zod3";
import { zodToJsonSchema } from "zod-to-json-schema";
import { serve } from "./ts_profiles.mjs";

const Priority = { Low: 1, Normal: 2, High: 3 };

const profile = z.object({
  name: z.string().min(1).describe("Your full name"),
  email: z.string().email(),
  birthday: z.string().date(),
  nickname: z.string().optional(),
  age: z.number().int().nullable(),
  team: z.string().nullable(),
  color: z.enum(["red", "green", "blue"]).default("blue"),
  priority: z.nativeEnum(Priority).default(Priority.Normal),
  tags: z.array(z.string()).default([]),
  newsletter: z.boolean().default(true),
});

const preferences = z.object({
  nickname: z.string().optional(),
  color: z.enum(["red", "green", "blue"]).default("blue"),
  priority: z.nativeEnum(Priority).default(Priority.Normal),
  tags: z.array(z.string()).default(["mcp"]),
  newsletter: z.boolean().default(true),
});

await serve("zod3-profiles", { profile, preferences }, (model) => zodToJsonSchema(model));
