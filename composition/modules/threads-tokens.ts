import { token } from '../tokens.js';
import type { TurnSettings, TurnFeeds } from '../../application/threads/turn-settings.js';
import type { ChatSettings } from '../../application/threads/chat-settings.js';
import type { AnswerSaving } from '../../domain/threads/answer-saving.js';
import type { TurnMirrors } from '../../application/threads/turn-mirrors.js';
import type { ThreadTitler } from '../../application/threads/thread-titler.js';
import type { ThreadBook } from '../../application/threads/thread-book.js';
import type { TurnHub } from '../../application/threads/turn-hub.js';
import type { TurnReaders } from '../../application/threads/turn-readers.js';
import type { AgentTurn } from '../../application/threads/agent-turn.js';
import type { ThreadUseCases } from '../../ports/use-cases/threads.js';

/** The threads' services: what threads-module.ts binds, and what other families and the tests resolve or replace. */
export const THREAD_TOKENS = {
  ThreadBook: token<ThreadBook>('ThreadBook'),
  TurnHub: token<TurnHub>('TurnHub'),
  /** Readers of turns on every instance, known through the store; null unless the host gives up unread turns. */
  TurnReaders: token<TurnReaders | null>('TurnReaders'),
  AgentTurn: token<AgentTurn>('AgentTurn'),
  ThreadUseCases: token<ThreadUseCases>('ThreadUseCases'),
  /** How turns are held, polled and followed on this instance. */
  TurnSettings: token<TurnSettings>('TurnSettings'),
  /** What the agent loop is told: the configuration's chat options. */
  ChatSettings: token<ChatSettings>('ChatSettings'),
  /** How a finished answer the store could not take is kept and tried again. */
  AnswerSaving: token<AnswerSaving>('AnswerSaving'),
  /** How long a turn nobody reads lives on (`turnGraceSeconds`), and how often others' readers are asked; null: to its end. */
  TurnGrace: token<{ readonly graceMs: number; readonly recheckMs: number } | null>('TurnGrace'),
  TurnFeeds: token<TurnFeeds>('TurnFeeds'),
  TurnMirrors: token<TurnMirrors>('TurnMirrors'),
  /** Names threads after their first answer; null with `titleModel: false`. */
  ThreadTitler: token<ThreadTitler | null>('ThreadTitler'),
};
