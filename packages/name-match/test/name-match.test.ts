import { expect } from 'chai';
import { DEFAULT_NAME_MATCH_THRESHOLD, NAME_LIMITS, matchNames, nameLimitExceeded, normalise, phoneticKey, type NameMatchReasonCode } from '../src/index.js';
import { confusion, loadNamePairs } from './table.js';

const codes = (name1: string, name2: string, kind?: 'person' | 'business'): NameMatchReasonCode[] =>
  matchNames(name1, name2, kind ? { kind } : {}).reasons.map((r) => r.code);

describe('name match', () => {
  describe('the test table (fixtures/name-pairs.tsv)', () => {
    const pairs = loadNamePairs();

    it('has at least 200 pairs, matches and non-matches of every kind', () => {
      expect(pairs.length).to.be.at.least(200);
      for (const kind of ['person', 'business'] as const) {
        expect(pairs.filter((p) => p.kind === kind && p.expected === 'match')).to.have.length.above(10);
        expect(pairs.filter((p) => p.kind === kind && p.expected === 'no_match')).to.have.length.above(10);
      }
    });

    it('reaches precision >= 0.95 and recall >= 0.9 at the default threshold', () => {
      const measured = confusion(pairs, (p) => matchNames(p.name1, p.name2, { kind: p.kind }).result === 'match');
      expect(measured.precision, JSON.stringify(measured)).to.be.at.least(0.95);
      expect(measured.recall, JSON.stringify(measured)).to.be.at.least(0.9);
    });

    it('is symmetric: the score does not depend on which name comes first', () => {
      for (const p of pairs) {
        expect(matchNames(p.name2, p.name1, { kind: p.kind }).score, `${p.name1} | ${p.name2}`)
          .to.equal(matchNames(p.name1, p.name2, { kind: p.kind }).score);
      }
    });
  });

  describe('explanations', () => {
    it('scores identical names 1 with the reason exact', () => {
      expect(matchNames('Rajesh Kumar Sharma', 'RAJESH KUMAR SHARMA')).to.deep.equal({
        score: 1, result: 'match', kind: 'person', reasons: [{ code: 'exact', detail: 'the same words' }],
      });
    });

    it('names the honorific dropped, the initial matched and the reordering', () => {
      const result = matchNames('Shri R. K. Sharma', 'Sharma Rajesh Kumar');
      expect(result.result).to.equal('match');
      expect(result.reasons).to.deep.include({ code: 'honorific_dropped', detail: 'shri' });
      expect(result.reasons).to.deep.include({ code: 'initial_matched', detail: 'r ~ rajesh' });
      expect(result.reasons.map((r) => r.code)).to.include('tokens_reordered');
    });

    it('names transliteration variants and expanded abbreviations', () => {
      expect(codes('Lakshmi Devi', 'Laxmi Devi')).to.deep.equal(['transliteration_variant']);
      expect(codes('Mohd Irfan', 'Mohammad Irfan')).to.deep.equal(['abbreviation_expanded']);
      expect(codes('Mohan Lal Verma', 'Mohanlal Varma')).to.deep.equal(['tokens_joined', 'vowel_variant']);
    });

    it('cuts a relation clause off and says so', () => {
      const result = matchNames('Ramesh Patil S/O Suresh Patil', 'Ramesh Patil');
      expect(result.score).to.equal(1);
      expect(result.reasons).to.deep.equal([{ code: 'relation_dropped', detail: 's/o suresh patil' }]);
    });

    it('fails a different first name with the same surname, naming the words', () => {
      const result = matchNames('Amit Kumar', 'Sumit Kumar');
      expect(result.result).to.equal('no_match');
      expect(result.reasons[0]).to.include({ code: 'token_mismatch' });
      expect(result.reasons[0]?.detail).to.match(/^amit ~ sumit/);
    });

    it('fails the father\'s name given for the son\'s', () => {
      expect(matchNames('Vikas Sureshbhai Patel', 'Sureshbhai Patel').result).to.equal('no_match');
      expect(codes('Vikas Sureshbhai Patel', 'Sureshbhai Patel')).to.deep.equal(['extra_tokens']);
    });

    it('normalises company legal forms and infers kind business from them', () => {
      const result = matchNames('Sai Enterprises (P) Ltd', 'M/s. SAI ENTERPRISES PRIVATE LIMITED');
      expect(result).to.deep.include({ score: 1, result: 'match', kind: 'business' });
      expect(result.reasons).to.deep.equal([{ code: 'legal_form_normalised', detail: 'private limited' }]);
    });

    it('marks conflicting legal forms', () => {
      const result = matchNames('Apex Legal Associates LLP', 'Apex Legal Associates Pvt Ltd');
      expect(result.result).to.equal('no_match');
      expect(result.reasons.map((r) => r.code)).to.include('legal_form_conflict');
    });

    it('scores a name with nothing left after normalisation 0', () => {
      expect(matchNames('Mr.', 'Rajesh Sharma')).to.deep.include({ score: 0, result: 'no_match' });
      expect(matchNames('', '')).to.deep.include({ score: 0, result: 'no_match' });
    });
  });

  describe('threshold', () => {
    it('decides at the given threshold, the score unchanged', () => {
      const loose = matchNames('Ramesh Sharma', 'Rajesh Sharma', { threshold: 0.5 });
      const strict = matchNames('Ramesh Sharma', 'Rajesh Sharma');
      expect(loose.score).to.equal(strict.score);
      expect(strict.score).to.be.below(DEFAULT_NAME_MATCH_THRESHOLD);
      expect([loose.result, strict.result]).to.deep.equal(['match', 'no_match']);
    });
  });

  describe('limits (the attack: 200 x U+33AF, which NFKD makes 1,200 characters and 400 words)', () => {
    const squares = '\u33AF'.repeat(200);

    it('refuses a name longer than 200 characters once normalised, though 200 as written', () => {
      expect(squares).to.have.length(200);
      expect(nameLimitExceeded(squares)).to.equal('must be at most 200 characters once normalised (NFKD)');
      expect(nameLimitExceeded('\u33AF'.repeat(30))).to.equal('must have at most 16 words'); // 180 characters, 60 words
      expect(nameLimitExceeded(Array.from({ length: 16 }, (_, i) => `word${i}`).join(' '))).to.equal(undefined);
      expect(nameLimitExceeded('Ms. Zoë Álvarez-Núñez Private Limited')).to.equal(undefined);
    });

    it('bounds a comparison whatever it is given: at most 16 words a side, so at most 256 pairs', () => {
      for (const kind of ['person', 'business'] as const) {
        for (const name of [squares, '\u33AF'.repeat(1_000_000), 'ab '.repeat(1_000)]) {
          const sides = [normalise(name, kind).tokens.length, normalise(`x ${name}`, kind).tokens.length];
          expect(Math.max(...sides), kind).to.be.at.most(NAME_LIMITS.words);
          expect(sides[0]! * sides[1]!).to.be.at.most(256);
        }
      }
      expect(matchNames(squares, squares)).to.deep.include({ score: 1, result: 'match' });
    });
  });

  describe('phonetic keys', () => {
    it('map common spelling conventions to one key', () => {
      for (const [a, b] of [['lakshmi', 'laxmi'], ['shrivastava', 'srivastav'], ['vasudev', 'wasudev'], ['phanindra', 'fanindra'],
        ['geetha', 'gita'], ['pooja', 'puja'], ['agarwal', 'aggarwal'], ['sanjay', 'sanjai'], ['chaudhary', 'choudhary']]) {
        expect(phoneticKey(a as string), `${a} / ${b}`).to.equal(phoneticKey(b as string));
      }
    });
  });
});
