"""torch.nn.modules: the Module base class and the layers built on it."""
from .module import Module
from .linear import Identity, Linear
from .activation import *  # noqa: F401,F403
from .activation import __all__ as _activation_all
from .container import Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
from .loss import *  # noqa: F401,F403
from .loss import __all__ as _loss_all
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .pooling import (MaxPool1d, MaxPool2d, MaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, AdaptiveAvgPool1d,
                      AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d,
                      LPPool1d, LPPool2d, LPPool3d)
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, GroupNorm, LocalResponseNorm
from .sparse import Embedding, EmbeddingBag
from .padding import *  # noqa: F401,F403
from .padding import __all__ as _padding_all
from .fold import Fold, Unfold
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout
from .flatten import Flatten, Unflatten
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .distance import PairwiseDistance, CosineSimilarity
from .upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d
from .rnn import RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell
from .transformer import (Transformer, TransformerEncoder, TransformerDecoder, TransformerEncoderLayer,
                          TransformerDecoderLayer)

__all__ = (['Module', 'Identity', 'Linear', 'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList', 'ParameterDict', 'Conv1d', 'Conv2d', 'Conv3d',
            'ConvTranspose1d', 'ConvTranspose2d', 'ConvTranspose3d', 'MaxPool1d', 'MaxPool2d', 'MaxPool3d',
            'AvgPool1d', 'AvgPool2d', 'AvgPool3d', 'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'AdaptiveAvgPool3d',
            'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'AdaptiveMaxPool3d', 'LPPool1d', 'LPPool2d', 'LPPool3d',
            'BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d', 'LayerNorm', 'GroupNorm', 'LocalResponseNorm', 'Embedding',
            'EmbeddingBag', 'Fold', 'Unfold', 'Dropout',
            'Dropout1d', 'Dropout2d', 'Dropout3d', 'AlphaDropout', 'FeatureAlphaDropout', 'Flatten', 'Unflatten',
            'PixelShuffle', 'PixelUnshuffle', 'PairwiseDistance', 'CosineSimilarity', 'Upsample', 'UpsamplingNearest2d', 'UpsamplingBilinear2d', 'RNNBase', 'RNN', 'LSTM', 'GRU', 'RNNCellBase',
            'RNNCell', 'LSTMCell', 'GRUCell', 'Transformer', 'TransformerEncoder', 'TransformerDecoder',
            'TransformerEncoderLayer', 'TransformerDecoderLayer'] + list(_activation_all) + list(_loss_all)
           + list(_padding_all))
