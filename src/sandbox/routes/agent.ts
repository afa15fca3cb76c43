// The agent (name, memory, address) and the home overview; both are composed in
// ../agent/home.ts. The research task's steps run here as the agent's jobs.
import type * as S from '../../api/shapes.js';
import { agentView, home, updateAgent } from '../agent/home.js';
import { researchStep } from '../agent/research.js';
import type { Jobs, Routes } from '../types.js';

export const routes: Routes = {
  getAgent: ({ account }) => ({ body: agentView(account) }),

  updateAgent: ({ account, body }) => {
    updateAgent(account, body as S.UpdateAgentRequest);
    return { status: 204 };
  },

  getHome: ({ world, account }) => ({ body: home(world, account) }),
};

export const jobs: Jobs = {
  'research.step': (world, event) => researchStep(world, event),
};
