// The tools of the two TypeScript servers (zod 3 and zod 4), written as the TypeScript SDK's
// documentation shows: an `McpServer`, `registerTool`, and `server.elicitInput({mode: "form",
// message, requestedSchema})` with the JSON Schema generated from a zod model. The SDK checks
// accepted content against the requested schema (Ajv); the tool then parses it with the zod
// model itself and returns what it parsed as JSON, so a test sees exactly what was accepted.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/**
 * Serve `profile` and `preferences` (zod object schemas) over stdio.
 * `toJsonSchema(model)` is the zod version's own converter.
 */
export async function serve(name, { profile, preferences }, toJsonSchema) {
  const server = new McpServer({ name, version: "1.0.0" });

  const ask = (message, model) => async () => {
    const result = await server.server.elicitInput({
      mode: "form",
      message,
      requestedSchema: toJsonSchema(model),
    });
    const out = { action: result.action };
    if (result.action === "accept") {
      const parsed = model.safeParse(result.content);
      if (!parsed.success) {
        return {
          isError: true,
          content: [{ type: "text", text: `invalid content: ${parsed.error.message}` }],
        };
      }
      out.data = parsed.data;
    }
    return { content: [{ type: "text", text: JSON.stringify(out) }] };
  };

  server.registerTool(
    "sign_up",
    { description: "Ask for a profile and echo what was accepted" },
    ask("Create your profile", profile),
  );
  server.registerTool(
    "preferences",
    { description: "Ask for preferences that all have defaults" },
    ask("Confirm your preferences", preferences),
  );
  await server.connect(new StdioServerTransport());
}
