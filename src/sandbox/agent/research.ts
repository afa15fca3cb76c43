// Research tasks the agent starts when asked: plan → searching → reading →
// writing → output, which waits on an action save_report.
import type * as S from '../../api/shapes.js';
import { expireAction, proposeAction } from '../actions/state.js';
import { foundSources } from '../watches/content.js';
import {
  cancelHooks,
  completeMilestone,
  createTask,
  findTask,
  isActive,
  setWaiting,
  startMilestone,
} from '../tasks/model.js';
import type { Account, ScheduledEvent } from '../types.js';
import type { World } from '../world.js';
import { queryTokens, retrieve } from './retrieve.js';

type Lang = S.Locale;

/** Research: plan → searching → reading → writing → output, which waits on action save_report. */
const RESEARCH_BOUNDS = [1000, 5000, 15_000, 25_000, 35_000];

export function startResearch(
  world: World,
  account: Account,
  conversation: S.Conversation,
  topic: string,
  lang: Lang,
  spaceId: string,
) {
  const zh = lang === 'zh';
  const task = createTask(world, account, {
    kind: 'research',
    title: zh ? `研究：${topic}` : `Research: ${topic}`,
    spaceId,
    milestones: [
      { kind: 'plan', title: zh ? '制定研究计划' : 'Plan the research' },
      { kind: 'step', title: zh ? '搜索来源' : 'Searching sources' },
      { kind: 'step', title: zh ? '阅读' : 'Reading' },
      { kind: 'step', title: zh ? '撰写报告' : 'Writing the report' },
      { kind: 'output', title: zh ? '把报告保存为文档' : 'Save the report as a doc' },
    ],
  });
  const start = world.now();
  world.schedule(start + (RESEARCH_BOUNDS[0] ?? 1000), 'research.step', account.id, {
    taskId: task.id,
    step: 0,
    start,
    conversationId: conversation.id,
    topic,
    lang,
    spaceId,
  });
  return task;
}

export function researchStep(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const data = event.data as {
    taskId: string;
    step: number;
    start: number;
    conversationId: string;
    topic: string;
    lang: Lang;
    spaceId: string;
  };
  const task = account ? findTask(account, data.taskId) : undefined;
  if (!account || !task || !isActive(task)) return;
  const zh = data.lang === 'zh';
  const tokens = queryTokens(data.topic);
  if (data.step > 0) {
    let detail: string | null = null;
    if (data.step === 2) {
      const n = retrieve(account, tokens, 10).length + 4;
      detail = zh ? `找到 ${n} 个来源` : `Found ${n} sources`;
    }
    completeMilestone(world, task, data.step - 1, { detail });
  }
  startMilestone(world, task, data.step);
  if (data.step < 4) {
    world.schedule(data.start + (RESEARCH_BOUNDS[data.step + 1] ?? 35_000), 'research.step', account.id, {
      ...data,
      step: data.step + 1,
    });
    return;
  }
  // Output: the report is ready; saving it as a doc waits for approval.
  const hits = retrieve(account, tokens, 5);
  const sources = foundSources(world.rng(`research:${task.id}`), 3);
  const title = zh ? `研究报告：${data.topic}` : `Research: ${data.topic}`;
  const findings = hits.map((h, i) => `- ${h.snippet} [${i + 1}]`);
  const refs = [...hits.map((h) => ({ title: h.title, url: h.url })), ...sources].map(
    (s, i) => `${i + 1}. [${s.title}](${s.url})`,
  );
  const nothingYet = zh
    ? '- 你的资料里暂无直接相关的内容；以下来源值得一读。'
    : '- Nothing in your own content bears on this yet; the sources below are worth reading.';
  const findingsText = findings.length > 0 ? findings.join('\n') : nothingYet;
  const markdown = `# ${title}\n\n## ${zh ? '发现' : 'Findings'}\n\n${findingsText}\n\n## ${zh ? '来源' : 'Sources'}\n\n${refs.join('\n')}\n`;
  setWaiting(world, task);
  proposeAction(world, account, {
    tool: 'save_report',
    risk: 'low',
    title: zh ? `保存报告“${title}”为文档` : `Save the report “${title}” as a doc`,
    preview: { title, excerpt: markdown.slice(0, 200) },
    ruleScope: 'docs.create',
    conversationId: data.conversationId,
    taskId: task.id,
    execute: { title, markdown, spaceId: data.spaceId, lang: data.lang },
  });
}

cancelHooks.research = (world, account, task) => {
  for (const action of account.actions)
    if (action.taskId === task.id && action.status === 'pending') expireAction(world, account, action, false);
};
