# pytorch/examples' word_language_model: data.py's Dictionary / Corpus (over in-memory lines, no
# files), model.py's RNNModel (Embedding, a 2-layer LSTM with dropout, Linear; init_weights,
# init_hidden, the tie_weights option and its errors) and TransformerModel (PositionalEncoding's
# registered buffer, nn.TransformerEncoder over TransformerEncoderLayer, the square subsequent
# mask, the math.sqrt(ninp) scaling; the encoder-only version the example had before it
# subclassed nn.Transformer), main.py's batchify / get_batch / repackage_hidden, train() with
# clip_grad_norm_ and the manual update p.data.add_(p.grad, alpha=-lr), evaluate(), the
# annealing of lr and the torch.save(model) / torch.load round trip, and generate.py's sampling
# with torch.multinomial over output.squeeze().div(temperature).exp().
# Losses and perplexities are printed with 4 decimals (the example prints 2, which can round the
# other way): within float32 rounding of 2.15's MKL matrix products and VML exp / tanh, which the
# steps carry into the losses. The sampled words come from multinomial's argmax of p / q
# (q ~ Exp(1)) and agree as long as no draw lands within rounding of a tie.
# reference tolerance: rtol=1e-5 atol=1e-4
import argparse
import io
import math
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- data.py ---------------------------------------------------------------------------------
class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


class Corpus(object):
    def __init__(self, texts):
        self.dictionary = Dictionary()
        self.train = self.tokenize(texts['train'])
        self.valid = self.tokenize(texts['valid'])
        self.test = self.tokenize(texts['test'])

    def tokenize(self, lines):
        """Tokenizes a text file (here: its lines)."""
        # Add words to the dictionary
        for line in lines:
            words = line.split() + ['<eos>']
            for word in words:
                self.dictionary.add_word(word)

        # Tokenize file content
        idss = []
        for line in lines:
            words = line.split() + ['<eos>']
            ids = []
            for word in words:
                ids.append(self.dictionary.word2idx[word])
            idss.append(torch.tensor(ids).type(torch.int64))
        ids = torch.cat(idss)

        return ids


# ---- model.py --------------------------------------------------------------------------------
class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            try:
                nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            except KeyError as e:
                raise ValueError( """An invalid option for `--model` was supplied,
                                 options are ['LSTM', 'GRU', 'RNN_TANH' or 'RNN_RELU']""") from e
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)

        # Optionally tie weights as in:
        # "Using the Output Embedding to Improve Language Models" (Press & Wolf 2016)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight

        self.init_weights()

        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


class PositionalEncoding(nn.Module):
    r"""Inject some information about the relative or absolute position of the tokens in the sequence."""

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)

        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Module):
    """Container module with an encoder, a recurrent or transformer module, and a decoder."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__()
        try:
            from torch.nn import TransformerEncoder, TransformerEncoderLayer
        except BaseException as e:
            raise ImportError('TransformerEncoder module does not exist in PyTorch 1.1 or '
                              'lower.') from e
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        encoder_layers = TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)

        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
        mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
        return mask

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None

        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


# ---- main.py ---------------------------------------------------------------------------------
texts = {
    'train': [
        "the cat sat on the mat and the dog sat on the log",
        "a quick brown fox jumps over the lazy dog",
        "the dog chased the cat around the old red barn",
        "she sells sea shells by the sea shore",
        "the old man and the sea is a short novel",
        "a bird in the hand is worth two in the bush",
        "the early bird catches the worm but the second mouse gets the cheese",
        "all that glitters is not gold",
        "the cat and the bird sat in the old barn",
        "a fox and a dog ran over the red hill",
        "the man sells the red barn to the old woman",
        "two birds sat on the worm and the cheese",
    ],
    'valid': [
        "the dog sat in the barn",
        "a bird is worth the cheese",
        "the old fox ran to the sea",
    ],
    'test': [
        "the cat chased a quick bird",
        "the woman sat by the sea shore",
        "all the gold is in the barn",
    ],
}
corpus = Corpus(texts)
print("vocab size", len(corpus.dictionary), corpus.dictionary.idx2word[:8])
print("tokens", corpus.train.shape, corpus.valid.shape, corpus.test.shape, corpus.train.dtype)


def batchify(data, bsz):
    # Work out how cleanly we can divide the dataset into bsz parts.
    nbatch = data.size(0) // bsz
    # Trim off any extra elements that wouldn't cleanly fit (remainders).
    data = data.narrow(0, 0, nbatch * bsz)
    # Evenly divide the data across the bsz batches.
    data = data.view(bsz, -1).t().contiguous()
    return data.to(device)


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""

    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(args.bptt, len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].view(-1)
    return data, target


def evaluate(data_source):
    # Turn on evaluation mode which disables dropout.
    model.eval()
    total_loss = 0.
    ntokens = len(corpus.dictionary)
    if args.model != 'Transformer':
        hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args.bptt):
            data, targets = get_batch(data_source, i)
            if args.model == 'Transformer':
                output = model(data)
                output = output.view(-1, ntokens)
            else:
                output, hidden = model(data, hidden)
                hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train():
    # Turn on training mode which enables dropout.
    model.train()
    total_loss = 0.
    ntokens = len(corpus.dictionary)
    if args.model != 'Transformer':
        hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        # If we didn't, the model would try backpropagating all the way to start of the dataset.
        model.zero_grad()
        if args.model == 'Transformer':
            output = model(data)
            output = output.view(-1, ntokens)
        else:
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()

        # `clip_grad_norm` helps prevent the exploding gradient problem in RNNs / LSTMs.
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)

        total_loss += loss.item()

        if batch % args.log_interval == 0 and batch > 0:
            cur_loss = total_loss / args.log_interval
            print('| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | '
                    'loss {:7.4f} | ppl {:10.4f}'.format(
                epoch, batch, len(train_data) // args.bptt, lr, cur_loss, math.exp(cur_loss)))
            total_loss = 0


def generate(words, temperature):
    # generate.py
    torch.manual_seed(args.seed)
    model.eval()
    ntokens = len(corpus.dictionary)
    is_transformer_model = hasattr(model, 'model_type') and model.model_type == 'Transformer'
    if not is_transformer_model:
        hidden = model.init_hidden(1)
    input = torch.randint(ntokens, (1, 1), dtype=torch.long).to(device)
    out = []
    with torch.no_grad():  # no tracking history
        for i in range(words):
            if is_transformer_model:
                output = model(input, False)
                word_weights = output[-1].squeeze().div(temperature).exp().cpu()
                word_idx = torch.multinomial(word_weights, 1)[0]
                word_tensor = torch.Tensor([[word_idx]]).long().to(device)
                input = torch.cat([input, word_tensor], 0)
            else:
                output, hidden = model(input, hidden)
                word_weights = output.squeeze().div(temperature).exp().cpu()
                word_idx = torch.multinomial(word_weights, 1)[0]
                input.fill_(word_idx)

            word = corpus.dictionary.idx2word[word_idx]
            out.append(word + ('\n' if i % 8 == 7 else ' '))
    print(''.join(out).rstrip())
    return input


def run(model_args):
    global args, model, criterion, lr, epoch
    args = model_args
    print(f"==== {args.model}{' tied' if args.tied else ''}")
    # Set the random seed manually for reproducibility.
    torch.manual_seed(args.seed)
    ntokens = len(corpus.dictionary)
    if args.model == 'Transformer':
        model = TransformerModel(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers, args.dropout).to(device)
    else:
        model = RNNModel(args.model, ntokens, args.emsize, args.nhid, args.nlayers, args.dropout, args.tied).to(device)
    print(model)
    print("parameters", sum(p.numel() for p in model.parameters()), len(list(model.parameters())),
          [name for name, _ in model.named_buffers()])
    criterion = nn.NLLLoss()

    # Loop over epochs.
    lr = args.lr
    best_val_loss = None
    for epoch in range(1, args.epochs+1):
        train()
        val_loss = evaluate(val_data)
        print('-' * 59)
        print('| end of epoch {:3d} | valid loss {:7.4f} | '
                'valid ppl {:10.4f}'.format(epoch, val_loss, math.exp(val_loss)))
        print('-' * 59)
        # Save the model if the validation loss is the best we've seen so far.
        if not best_val_loss or val_loss < best_val_loss:
            f = io.BytesIO()
            torch.save(model, f)
            best_val_loss = val_loss
        else:
            # Anneal the learning rate if no improvement has been seen in the validation dataset.
            lr /= 4.0
            print("lr annealed to", lr)

    # Load the best saved model.
    f.seek(0)
    model = torch.load(f, weights_only=False)
    # after load the rnn params are not a continuous chunk of memory
    # this makes them a continuous chunk, and will speed up forward pass
    # Currently, only rnn model supports flatten_parameters function.
    if args.model in ['RNN_TANH', 'RNN_RELU', 'LSTM', 'GRU']:
        model.rnn.flatten_parameters()
    print("loaded", type(model).__name__, model.training)

    # Run on test data.
    test_loss = evaluate(test_data)
    print('=' * 59)
    print('| End of training | test loss {:7.4f} | test ppl {:10.4f}'.format(
        test_loss, math.exp(test_loss)))
    print('=' * 59)


device = torch.device("cpu")
eval_batch_size = 2
train_data = batchify(corpus.train, 4)
val_data = batchify(corpus.valid, eval_batch_size)
test_data = batchify(corpus.test, eval_batch_size)
print("batchified", tuple(train_data.shape), tuple(val_data.shape), tuple(test_data.shape),
      train_data.is_contiguous(), train_data[:3, 0].tolist())
base = dict(model='LSTM', emsize=16, nhid=16, nlayers=2, lr=20.0, clip=0.25, epochs=3,
            batch_size=4, bptt=6, dropout=0.2, tied=False, seed=1111, nhead=2, log_interval=2)

run(argparse.Namespace(**base))
generate(16, 1.0)
run(argparse.Namespace(**dict(base, tied=True, epochs=2)))
print("tied", model.decoder.weight is model.encoder.weight)
generate(8, 0.5)

# main.py's errors for a bad --model or --tied with nhid != emsize
for bad in (dict(rnn_type='LSTMX'), dict(rnn_type='GRU', tie_weights=True, nhid=12)):
    kw = dict(rnn_type='LSTM', ntoken=10, ninp=8, nhid=8, nlayers=1, dropout=0.0)
    kw.update(bad)
    try:
        RNNModel(**kw)
    except ValueError as e:
        print("ValueError:", ' '.join(str(e).split()), type(e.__cause__).__name__)

# TransformerEncoder warns once about its nested-tensor fast path (batch_first is False)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    run(argparse.Namespace(**dict(base, model='Transformer', emsize=16, nhid=32, lr=5.0, epochs=2)))
print([f"{w.category.__name__}: {w.message}" for w in caught])
print("mask", model.src_mask.shape, model.src_mask[:3, :3].tolist())
print("pe", tuple(model.pos_encoder.pe.shape), f"{model.pos_encoder.pe[3, 0, :4].sum().item():.4f}",
      'pos_encoder.pe' in model.state_dict())
inp = generate(10, 0.8)
print("input", tuple(inp.shape), inp.dtype, model.src_mask)

# generate.py's torch.Tensor([[word_idx]]): the legacy constructor, in the default dtype
print(torch.Tensor([[torch.tensor(3)]]), torch.Tensor(2, 3).shape, torch.Tensor(torch.Size([4])).shape,
      torch.Tensor(), torch.Tensor((2, 3)), torch.Tensor(torch.tensor([1, 2])).dtype)
for bad in ("torch.Tensor(2.5)", "torch.Tensor(None)", "torch.Tensor('ab')"):
    try:
        eval(bad)
    except TypeError as e:
        print("TypeError:", e)
