// Every domain's routes and background jobs, gathered for the server.
import type { Jobs, Routes } from '../types.js';
import * as account from './account.js';
import * as actions from './actions.js';
import * as agent from './agent.js';
import * as conversations from './conversations.js';
import * as docs from './docs.js';
import * as inbox from './inbox.js';
import * as library from './library.js';
import * as media from './media.js';
import * as spaces from './spaces.js';
import * as tasks from './tasks.js';
import * as watches from './watches.js';

const modules = [account, spaces, watches, library, docs, media, agent, inbox, tasks, conversations, actions];

export const routes: Routes = Object.assign({}, ...modules.map((m) => m.routes));
export const jobs: Jobs = Object.assign({}, ...modules.map((m) => m.jobs));
