// Routes and background jobs for the conversations part of the API.
import type { Jobs, Routes } from '../types.js';

export const routes: Routes = {};
export const jobs: Jobs = {};
