// A TypeScript SDK server (stdio) with one tool whose execution.taskSupport is "optional":
// `count` counts to `n` in 0.1 s steps and says how it was called (as a task or plainly).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from "@modelcontextprotocol/sdk/experimental/tasks";
import { z } from "zod";

const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: "optional-task-server", version: "1.0.0" },
  {
    capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    taskStore,
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  },
);

const input = { n: z.number().int().default(3) };

server.experimental.tasks.registerToolTask(
  "count",
  { description: "Count to n", inputSchema: input, execution: { taskSupport: "optional" } },
  {
    createTask: async (args, extra) => {
      const task = await extra.taskStore.createTask({ ttl: 60000, pollInterval: 200 });
      (async () => {
        for (let i = 1; i <= args.n; i++) {
          await extra.taskStore.updateTaskStatus(task.taskId, "working", `at ${i} of ${args.n}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        await extra.taskStore.storeTaskResult(task.taskId, "completed", {
          content: [{ type: "text", text: `counted to ${args.n} as a task` }],
        });
      })().catch(console.error);
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  },
);

await server.connect(new StdioServerTransport());
