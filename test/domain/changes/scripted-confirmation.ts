import type { Confirmation, ConfirmationAnswer, LossQuestion } from '../../../src/domain/ports/confirmation.port.js';

/** Answers every question with `answer`, and keeps the questions. */
export class ScriptedConfirmation implements Confirmation {
  readonly questions: LossQuestion[] = [];
  constructor(
    public answer: ConfirmationAnswer,
    /** Whether the call in progress has anyone to ask. */
    public askable = true,
  ) {}
  canAsk(): boolean {
    return this.askable;
  }
  ask(question: LossQuestion): Promise<ConfirmationAnswer> {
    this.questions.push(question);
    return Promise.resolve(this.answer);
  }
}
